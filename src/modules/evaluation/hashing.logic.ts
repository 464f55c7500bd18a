import murmurhash from "murmurhash3js";

const STRATEGY_SEED = 0;
const VARIANT_SEED = 86028157;

/**
 * The official SDKs' normalised hash: MurmurHash3 (x86, 32 bit) of `groupId:id`, mod the
 * normaliser, plus one; so the same user gets the same bucket in every SDK and here.
 */
function normalized(id: string, groupId: string, normalizer: number, seed: number): number {
  return (murmurhash.x86.hash32(`${groupId}:${id}`, seed) % normalizer) + 1;
}

/** 1..100: the user's place in a percentage rollout of `groupId`. */
export const strategyBucket = (id: string, groupId: string) => normalized(id, groupId, 100, STRATEGY_SEED);

/** 1..totalWeight: the user's place among the variants of `groupId`. */
export const variantBucket = (id: string, groupId: string, totalWeight: number) =>
  normalized(id, groupId, totalWeight, VARIANT_SEED);
