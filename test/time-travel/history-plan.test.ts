import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { observeStatements } from "../../src/db/sql-observer.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, createProject } from "../helpers/builders.ts";

/**
 * Issue 42, point 4: a toggle costs the same however many flags its project has. Its event's
 * statement keeps the flag's history (flag-history.write.ts); the statement PostgreSQL plans for
 * an event that names one flag must be costed for one flag: when it also held the branch of
 * project-wide events, the planner counted every flag of the project for every event, hashed
 * the Feature table and, past its JIT threshold (cost 100,000), compiled the statement: a second
 * per toggle at 100,000 flags.
 */
let t: TestApp;
let captured: { sql: string; args: readonly unknown[] } | null = null;
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      wrapAdapter: observeStatements((sql, _ms, args) => {
        if (sql.includes('INSERT INTO "FeatureStateVersion"')) captured = { sql, args };
      }),
    },
  );
});
afterAll(() => t?.close());

/** PostgreSQL's default jit_above_cost: a statement estimated dearer is JIT-compiled first. */
const JIT_ABOVE_COST = 100_000;

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Total Cost": number; Plans?: PlanNode[] };
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describe("the event statement of a toggle", () => {
  it("is planned for the one flag it names, in a project of 20,000 flags", async () => {
    await createProject(t, "crowded", { name: "Crowded" });
    // Made first: past the flags a project may hold, the API refuses new ones.
    await createFlag(t, "crowded-toggled", { project: "crowded" });
    await t.deps.db.$executeRawUnsafe(`INSERT INTO "Feature"(name, "projectId")
      SELECT 'crowded-' || g, 'crowded' FROM generate_series(1, 20000) g`);
    await t.deps.db.$executeRawUnsafe(`ANALYZE "Feature"`);

    captured = null;
    const path = "/api/admin/projects/crowded/features/crowded-toggled/environments/development/on";
    expect((await t.rest("POST", path)).status).toBe(200);
    const statement = captured as { sql: string; args: readonly unknown[] } | null;
    expect(statement).not.toBeNull();
    const args = (statement?.args ?? []).map((a) =>
      a !== null && typeof a === "object" && !Array.isArray(a) && !(a instanceof Date)
        ? JSON.stringify(a)
        : a,
    );
    const [row] = await t.deps.db.$queryRawUnsafe<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(
      `EXPLAIN (FORMAT JSON) ${statement?.sql}`,
      ...args,
    );
    const plan = row?.["QUERY PLAN"][0].Plan as PlanNode;
    expect(plan["Total Cost"]).toBeLessThan(JIT_ABOVE_COST);
    const scans = nodesOf(plan).filter(
      (n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] === "Feature",
    );
    expect(scans).toEqual([]);
  });
});
