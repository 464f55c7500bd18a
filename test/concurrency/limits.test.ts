import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { expectNoServerError, times } from "../helpers/concurrency.ts";

/**
 * Resource limits under concurrency: with room for N more, 10 concurrent creations give
 * exactly N, and the others the limit's error (never a 500, never N+1). Real overlap needs
 * PostgreSQL (CI's second pass); PGlite runs them one at a time.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    UNLEASH_FEATURE_FLAGS_LIMIT: "3",
    UNLEASH_PROJECTS_LIMIT: "3",
    UNLEASH_SEGMENTS_LIMIT: "3",
    UNLEASH_ENVIRONMENTS_LIMIT: "5",
    UNLEASH_API_TOKENS_LIMIT: "4",
  });
});
afterAll(() => t.close());

const limited: [string, (i: number) => [string, unknown], () => Promise<number>, number][] = [
  [
    "flags",
    (i) => ["/api/admin/projects/default/features", { name: `limited-${i}` }],
    () => t.database.prisma.feature.count(),
    3,
  ],
  [
    "projects",
    (i) => ["/api/admin/projects", { id: `limited-${i}`, name: `Limited ${i}` }],
    () => t.database.prisma.project.count(),
    3,
  ],
  [
    "segments",
    (i) => ["/api/admin/segments", { name: `limited-${i}`, constraints: [] }],
    () => t.database.prisma.segment.count(),
    3,
  ],
  [
    "environments",
    (i) => ["/api/admin/environments", { name: `limited-${i}`, type: "test" }],
    () => t.database.prisma.environment.count(),
    5,
  ],
  [
    "API tokens",
    (i) => ["/api/admin/api-tokens", { tokenName: `limited-${i}`, type: "admin" }],
    () => t.database.prisma.apiToken.count(),
    4,
  ],
];

for (const [what, request, count, limit] of limited) {
  it(`10 concurrent creations of ${what} stop exactly at the limit`, async () => {
    const results = await times(10, (i) => t.rest("POST", ...request(i)));
    expectNoServerError(results);
    const refused = results.filter((r) => r.status >= 300);
    for (const r of refused) expect(r.body.name, JSON.stringify(r.body)).toBe("ExceedsLimitError");
    expect(await count()).toBe(limit);
  });
}
