import { BlockList, isIP } from "node:net";

/**
 * Where integrations may send requests: http(s) only, and never to link-local or cloud
 * metadata addresses (169.254.0.0/16 with 169.254.169.254, fe80::/10, fd00:ec2::254,
 * 100.100.100.200) unless the operator allows it. Loopback and private ranges stay allowed:
 * self-hosted receivers live there.
 */
const BLOCKED = new BlockList();
BLOCKED.addSubnet("169.254.0.0", 16, "ipv4");
BLOCKED.addAddress("100.100.100.200", "ipv4");
BLOCKED.addSubnet("fe80::", 10, "ipv6");
BLOCKED.addAddress("fd00:ec2::254", "ipv6");

export type OutboundPolicy = { allowLinkLocal: boolean };

/** Why `url` may not be called, or null when it may. */
export function urlProblem(url: string, policy: OutboundPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "is not a valid URL";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "must use http or https";
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && addressBlocked(host, policy))
    return `must not point at a link-local or metadata address (${host})`;
  return null;
}

/** True for a resolved address integrations must not reach. */
export function addressBlocked(address: string, policy: OutboundPolicy): boolean {
  if (policy.allowLinkLocal) return false;
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, "ipv4");
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  return mapped ? BLOCKED.check(mapped, "ipv4") : BLOCKED.check(address, "ipv6");
}
