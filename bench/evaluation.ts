/**
 * Evaluation engine speed (no database): one flexibleRollout flag with two constraints for one
 * context, and every flag of a 10,000-flag configuration for one context.
 * Run: npm run bench:evaluation. Results: bench/results/evaluation.json (operations per second, p50/p99).
 */
import type { ClientFeature } from "../src/modules/evaluation/client-features.types.ts";
import { compileState, evaluateAll, evaluateFlag } from "../src/modules/evaluation/engine.logic.ts";
import { type ScenarioResult, saveResults, scenarioResult, startLoadMeter } from "./results.ts";

function flag(i: number): ClientFeature {
  return {
    name: `flag-${i}`,
    enabled: i % 10 !== 0,
    strategies: [
      {
        name: "flexibleRollout",
        parameters: { rollout: String(i % 100), stickiness: "default", groupId: `flag-${i}` },
        constraints: [
          { contextName: "country", operator: "IN", values: ["NO", "SE", "DK", "FI"] },
          { contextName: "appVersion", operator: "SEMVER_GTE", value: "2.0.0" },
        ],
      },
    ],
    variants:
      i % 3 === 0
        ? [
            { name: "a", weight: 500 },
            { name: "b", weight: 500 },
          ]
        : [],
  };
}

const compiled = compileState({ features: Array.from({ length: 10_000 }, (_, i) => flag(i)), segments: [] });
const context = { userId: "user-123", properties: { country: "NO", appVersion: "2.3.1" } };

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

const results: ScenarioResult[] = [];

function measure(label: string, runs: number, fn: () => void, unit: "µs" | "ms") {
  for (let i = 0; i < Math.min(runs, 1000); i++) fn();
  const load = startLoadMeter();
  const started = performance.now();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - start) / (unit === "µs" ? 1e3 : 1e6));
  }
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const toMs = unit === "µs" ? 1 / 1000 : 1;
  results.push(
    scenarioResult(
      label,
      { reqPerSec: runs / seconds, p50Ms: percentile(times, 50) * toMs, p99Ms: percentile(times, 99) * toMs },
      { database: "none", otherLoad: load.otherLoad(), details: { runs } },
    ),
  );
  console.log(
    `${label}: median ${percentile(times, 50).toFixed(2)} ${unit}, p99 ${percentile(times, 99).toFixed(2)} ${unit} (${runs} runs)`,
  );
}

measure(
  "one flag, one context (flexibleRollout + 2 constraints)",
  200_000,
  () => {
    evaluateFlag(compiled, "flag-4321", context, { explain: false });
  },
  "µs",
);
measure(
  "10,000 flags, one context",
  50,
  () => {
    evaluateAll(compiled, context, { explain: false });
  },
  "ms",
);
measure(
  "one flag, one context, with the explanation (playground)",
  200_000,
  () => {
    evaluateFlag(compiled, "flag-4321", context);
  },
  "µs",
);

await saveResults("evaluation", results);
