/** The units variants' weights share (Unleash's 1000: a weight of 500 is half). */
export const TOTAL_WEIGHT = 1000;

/**
 * Each variant's weight as stored: `fix` weights are kept; the rest of TOTAL_WEIGHT is shared by
 * the `variable` ones, each floor(rest / count) and the first (rest % count), in order, one more,
 * so the total is exact. A rest below 0 counts as 0 (the write refuses such fix weights).
 */
export function sharedWeights(variants: readonly { weight: number; weightType: string }[]): number[] {
  const fixTotal = variants.filter((v) => v.weightType === "fix").reduce((sum, v) => sum + v.weight, 0);
  const variableCount = variants.filter((v) => v.weightType !== "fix").length;
  if (variableCount === 0) return variants.map((v) => v.weight);
  const rest = Math.max(0, TOTAL_WEIGHT - fixTotal);
  const share = Math.floor(rest / variableCount);
  let remainder = rest % variableCount;
  return variants.map((v) => {
    if (v.weightType === "fix") return v.weight;
    const extra = remainder > 0 ? 1 : 0;
    remainder -= extra;
    return share + extra;
  });
}
