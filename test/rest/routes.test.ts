import { parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { allRoutes } from "../../rest/routes/index.ts";
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

  it("declares each method and path once", () => {
    const keys = allRoutes.map((r) => `${r.method} ${r.path.replace(/:\w+/g, ":")}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
});
