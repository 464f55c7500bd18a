import { parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { allRoutes } from "../../rest/routes/index.ts";
import { armorRules, lexicalProblem } from "../../src/http/graphql-limits.ts";
import { schema } from "../../src/schema.ts";

describe("the REST route table", () => {
  it("runs only valid GraphQL operations, one per route", () => {
    const problems = allRoutes.flatMap((route) => {
      const document = parse(route.document);
      const operations = document.definitions.filter((d) => d.kind === "OperationDefinition");
      const errors = validate(schema, document).map((e) => `${route.method} ${route.path}: ${e.message}`);
      return operations.length === 1
        ? errors
        : [...errors, `${route.method} ${route.path}: ${operations.length} operations`];
    });
    expect(problems).toEqual([]);
  });

  it("runs documents within the limits every GraphQL operation meets (depth counts fragment spreads)", () => {
    const problems = allRoutes.flatMap((route) => {
      const lexical = lexicalProblem(route.document);
      const errors = validate(schema, parse(route.document), armorRules()).map((e) => e.message);
      return [...(lexical ? [lexical] : []), ...errors].map((m) => `${route.method} ${route.path}: ${m}`);
    });
    expect(problems).toEqual([]);
  });

  it("declares each method and path once", () => {
    const keys = allRoutes.map((r) => `${r.method} ${r.path.replace(/:\w+/g, ":")}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
});
