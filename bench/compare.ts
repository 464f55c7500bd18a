// `npm run bench:compare` (also the end of `npm run bench`): each scenario measured since the
// committed baseline (bench/results/*.json at BENCH_BASELINE, default HEAD) against its
// baseline figure. A scenario is a regression when it is more than 15 % slower (req/s lower, or
// without req/s its p50 higher; RSS or memory per connection larger) and both runs had a comparable machine: other work
// used at most half of the cores in each, and the two differ by at most 0.15 of the cores.
// Otherwise the comparison is inconclusive, not a failure. Exits 1 on a regression.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { basename } from "node:path";
import { RESULTS_DIR, type ResultsFile, readResults, type ScenarioResult } from "./results.ts";

export const TOLERANCE = 0.15;
export const MAX_OTHER_LOAD = 0.5;
export const MAX_LOAD_DIFFERENCE = 0.15;
const baselineRef = process.env.BENCH_BASELINE ?? "HEAD";

type Metric = {
  name: string;
  unit: string;
  higherIsBetter: boolean;
  of: (r: ScenarioResult) => number | undefined;
};
const THROUGHPUT: Metric = { name: "req/s", unit: "", higherIsBetter: true, of: (r) => r.reqPerSec };
const LATENCY: Metric = { name: "p50", unit: " ms", higherIsBetter: false, of: (r) => r.p50Ms };
const MEMORY: Metric = { name: "RSS", unit: " MiB", higherIsBetter: false, of: (r) => r.rssMiB };
const PER_CONNECTION: Metric = {
  name: "memory per connection",
  unit: " KiB",
  higherIsBetter: false,
  of: (r) => r.kibPerConnection,
};

/** The figures a scenario is judged on: its throughput, else its median latency; and its memory. */
function metricsOf(r: ScenarioResult): Metric[] {
  const speed = r.reqPerSec !== undefined ? [THROUGHPUT] : r.p50Ms !== undefined ? [LATENCY] : [];
  return [
    ...speed,
    ...(r.rssMiB !== undefined ? [MEMORY] : []),
    ...(r.kibPerConnection !== undefined ? [PER_CONNECTION] : []),
  ];
}

function baselineOf(file: string): ResultsFile | null {
  try {
    const text = execFileSync("git", ["show", `${baselineRef}:bench/results/${file}`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    return JSON.parse(text) as ResultsFile;
  } catch {
    return null;
  }
}

export type Verdict = "regression" | "ok" | "inconclusive" | "new";

export function judge(latest: ScenarioResult, baseline: ScenarioResult | undefined) {
  if (!baseline) return { verdict: "new" as Verdict, notes: ["no baseline"] };
  const comparable =
    latest.otherLoad <= MAX_OTHER_LOAD &&
    baseline.otherLoad <= MAX_OTHER_LOAD &&
    Math.abs(latest.otherLoad - baseline.otherLoad) <= MAX_LOAD_DIFFERENCE;
  const notes: string[] = [];
  let worse = false;
  for (const m of metricsOf(latest)) {
    const [now, before] = [m.of(latest), m.of(baseline)];
    if (now === undefined || before === undefined || before === 0) continue;
    const change = now / before - 1;
    const slower = m.higherIsBetter ? change < -TOLERANCE : change > TOLERANCE;
    worse ||= slower;
    const sign = change >= 0 ? "+" : "";
    const show = (n: number) => Number(n.toPrecision(4));
    notes.push(
      `${m.name} ${show(before)}${m.unit} -> ${show(now)}${m.unit} (${sign}${(change * 100).toFixed(0)} %)`,
    );
  }
  notes.push(`other load ${baseline.otherLoad} -> ${latest.otherLoad}`);
  const verdict: Verdict = !worse ? "ok" : comparable ? "regression" : "inconclusive";
  return { verdict, notes };
}

function main() {
  const files = readdirSync(RESULTS_DIR).filter((f) => f.endsWith(".json"));
  const counts: Record<Verdict, number> = { regression: 0, ok: 0, inconclusive: 0, new: 0 };
  for (const file of files) {
    const latest = readResults(`${RESULTS_DIR}${file}`);
    const baseline = baselineOf(file);
    const before = new Map((baseline?.scenarios ?? []).map((r) => [`${r.database}:${r.scenario}`, r]));
    for (const r of latest?.scenarios ?? []) {
      const old = before.get(`${r.database}:${r.scenario}`);
      if (old && old.date === r.date) continue; // not measured again since the baseline
      const { verdict, notes } = judge(r, old);
      counts[verdict]++;
      console.log(
        `${verdict.padEnd(12)} ${basename(file, ".json")} / ${r.database} / ${r.scenario}: ${notes.join("; ")}`,
      );
    }
  }
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(
    total === 0
      ? `bench:compare: nothing measured since ${baselineRef}`
      : `bench:compare against ${baselineRef}: ${counts.regression} regression(s), ${counts.inconclusive} inconclusive (machine load not comparable), ${counts.ok} within ${TOLERANCE * 100} %, ${counts.new} new`,
  );
  if (counts.regression > 0) process.exitCode = 1;
}

main();
