import type { AddonPayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import type { Addon } from "../../generated/prisma/client.ts";
import { NotFoundError, ValidationError } from "../../shared/errors.ts";
import { lockRow } from "../../shared/row-lock.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { type AddonData, type AddonInput, addonInputSchema } from "./addon.inputs.ts";
import { type OutboundPolicy, urlProblem } from "./outbound.logic.ts";
import { MASK, providerNamed } from "./providers.logic.ts";

/** Creates an addon. Event: addon-config-created (without parameters). Throws Validation. */
export async function createAddon(w: Write, input: AddonInput, policy: OutboundPolicy) {
  const data = validate(parseInput(addonInputSchema, input), policy);
  const addon = await w.tx.addon.create({ data: { ...data, description: data.description ?? null } });
  await recordEvent(w, { type: "addon-config-created", data: withoutParameters(addon) });
  return addon;
}

/**
 * Replaces an addon's configuration. A sensitive parameter sent back as `*****` (as reads
 * show it) keeps the stored secret. Event: addon-config-updated. Throws NotFound, Validation.
 */
export async function updateAddon(w: Write, id: number, input: AddonInput, policy: OutboundPolicy) {
  await lockRow(w.tx, "Addon", id);
  const before = await existingAddon(w, id);
  const parsed = parseInput(addonInputSchema, input);
  const stored = (before.parameters ?? {}) as Record<string, unknown>;
  const parameters = Object.fromEntries(
    Object.entries(parsed.parameters).map(([name, value]) => [
      name,
      value === MASK && parsed.provider === before.provider ? (stored[name] as string) : value,
    ]),
  );
  const data = validate({ ...parsed, parameters }, policy);
  const addon = await w.tx.addon.update({
    where: { id },
    data: { ...data, description: data.description ?? null },
  });
  await recordEvent(w, {
    type: "addon-config-updated",
    data: withoutParameters(addon),
    preData: withoutParameters(before),
  });
  return addon;
}

/** Deletes an addon with its pending deliveries and log. Event: addon-config-deleted. Throws NotFound. */
export async function deleteAddon(w: Write, id: number) {
  await lockRow(w.tx, "Addon", id);
  const before = await existingAddon(w, id);
  await w.tx.addon.delete({ where: { id } });
  await recordEvent(w, { type: "addon-config-deleted", preData: withoutParameters(before) });
  return before;
}

export async function existingAddon(w: Pick<Write, "tx">, id: number): Promise<Addon> {
  const addon = await w.tx.addon.findUnique({ where: { id } });
  if (!addon) throw new NotFoundError(`Could not find addon with id ${id}.`);
  return addon;
}

/** Addon events never carry parameters: they may hold secrets (reference §3.2). */
function withoutParameters(addon: Addon): AddonPayload {
  const { parameters: _secret, createdAt, ...rest } = addon;
  return { ...rest, createdAt: createdAt.toISOString() };
}

function validate(data: AddonData, policy: OutboundPolicy): AddonData {
  const provider = providerNamed(data.provider);
  if (!provider) {
    throw new ValidationError(`provider: "${data.provider}" is not a known provider`, [
      { path: "provider", message: `unknown provider "${data.provider}"` },
    ]);
  }
  const known = new Set(provider.parameters.map((p) => p.name));
  const unknown = Object.keys(data.parameters).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new ValidationError(`parameters: unknown parameters for ${provider.name}: ${unknown.join(", ")}`, [
      { path: "parameters", message: `unknown parameters: ${unknown.join(", ")}` },
    ]);
  }
  const missing = provider.parameters
    .filter((p) => p.required && (data.parameters[p.name] ?? "") === "")
    .map((p) => p.name);
  if (missing.length > 0) {
    throw new ValidationError(`parameters: Missing required parameters: ${missing.join(", ")}`, [
      { path: "parameters", message: `Missing required parameters: ${missing.join(", ")}` },
    ]);
  }
  for (const parameter of provider.parameters.filter((p) => p.type === "url")) {
    const value = data.parameters[parameter.name];
    const problem =
      value === undefined || value === ""
        ? null
        : typeof value === "string"
          ? urlProblem(value, policy)
          : "must be a URL";
    if (problem) {
      throw new ValidationError(`parameters.${parameter.name}: ${problem}`, [
        { path: `parameters.${parameter.name}`, message: problem },
      ]);
    }
  }
  return data;
}
