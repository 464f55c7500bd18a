import semver from "semver";

/**
 * The oldest SDK version Unleash 8.2 does not report as outdated, per SDK name (its
 * findOutdatedSdks list, old and renamed SDK names). An SDK not listed is never outdated.
 */
const MINIMUM_VERSIONS: Record<string, string> = {
  "unleash-client-node": "5.3.2",
  "unleash-client-nextjs": "1.6.2",
  "unleash-client-java": "9.2.0",
  "unleash-client-go": "4.1.0",
  "unleash-client-python": "5.11.0",
  "unleash-client-ruby": "5.0.0",
  "unleash-client-dotnet": "4.1.3",
  "unleash-client-php": "2.3.0",
  "unleash-node-sdk": "6.6.0",
  "unleash-nextjs-sdk": "1.6.2",
  "unleash-java-sdk": "11.0.2",
  "unleash-go-sdk": "5.0.3",
  "unleash-python-sdk": "6.3.0",
  "unleash-ruby-sdk": "6.3.1",
  "unleash-dotnet-sdk": "5.3.0",
};

/** `name:version` split in two; null for anything else. */
export function splitSdkVersion(sdkVersion: string | null): { name: string; version: string } | null {
  if (!sdkVersion) return null;
  const parts = sdkVersion.split(":");
  if (parts.length !== 2) return null;
  return { name: parts[0] as string, version: parts[1] as string };
}

/** Whether an SDK version (`name:version`) is older than the minimum for its SDK. */
export function isOutdatedSdk(sdkVersion: string | null): boolean {
  const sdk = splitSdkVersion(sdkVersion);
  if (!sdk) return false;
  const minimum = MINIMUM_VERSIONS[sdk.name];
  return Boolean(minimum && semver.valid(sdk.version) && semver.lt(sdk.version, minimum));
}
