import { describe, expect, it } from "vitest";
import { z } from "zod";
import { graphql } from "../../rest/graphql.ts";
import { firstFieldSchema, resultSchema } from "../../rest/result-schema.ts";
import { typedRoute } from "../../rest/route.ts";

// Response schemas read from the typed documents (rest/result-schema.ts): what the OpenAPI
// document shows and what the suite's answer checks (checkRestResponses) hold REST answers to.

const StrategyBits = graphql(`
  fragment StrategyBits on Strategy {
    id: databaseId title sortOrder parameters constraints { operator values value }
  }
`);

describe("a response schema read from a fragment", () => {
  const schema = resultSchema(StrategyBits, { parameters: z.record(z.string(), z.string()) });
  const strategy = {
    id: "s1",
    title: null,
    sortOrder: 0,
    parameters: { rollout: "50" },
    constraints: [{ operator: "IN", values: ["a"], value: null }],
  };

  it("has the selected fields under their aliases, with GraphQL's types, nullability and enums", () => {
    expect(schema.safeParse(strategy).success).toBe(true);
    expect(schema.safeParse({ ...strategy, title: "t" }).success).toBe(true);
    expect(schema.safeParse({ ...strategy, id: undefined, databaseId: "s1" }).success).toBe(false);
    expect(schema.safeParse({ ...strategy, sortOrder: 0.5 }).success).toBe(false);
    expect(
      schema.safeParse({ ...strategy, constraints: [{ operator: "LIKE", values: [], value: null }] }).success,
    ).toBe(false);
    // `values` is non-null, `value` nullable.
    expect(
      schema.safeParse({ ...strategy, constraints: [{ operator: "IN", values: null, value: null }] }).success,
    ).toBe(false);
  });

  it("narrows a field as told, and carries GraphQL's descriptions into the OpenAPI document", () => {
    expect(schema.safeParse({ ...strategy, parameters: { rollout: 50 } }).success).toBe(false);
    const json = z.toJSONSchema(schema) as { properties: Record<string, { description?: string }> };
    expect(json.properties.sortOrder?.description).toBe("Position in the list, ascending.");
  });

  it("refuses a narrowing of a field the fragment does not select", () => {
    expect(() => resultSchema(StrategyBits, { rollout: z.string() })).toThrow(
      "resultSchema(StrategyBits): no field rollout",
    );
  });
});

describe("a route's response schema", () => {
  const document = graphql(`query Env($name: String!) { environment(name: $name) { name sortOrder } }`);
  const base = { method: "GET", path: "/x/:name", tag: "Test", summary: "A test route" } as const;

  it("is its first root field's, read from the document, when it answers that field as GraphQL gives it", () => {
    const route = typedRoute({ ...base, document, variables: { name: "path.name" } });
    expect(route.schemas?.response?.safeParse({ name: "dev", sortOrder: 1 }).success).toBe(true);
    expect(route.schemas?.response?.safeParse({ name: "dev" }).success).toBe(false);
    expect(firstFieldSchema(document).safeParse({ name: "dev", sortOrder: 1 }).success).toBe(true);
  });

  it("is none for a route that reshapes the answer without declaring it, or that answers no body", () => {
    const reshaped = typedRoute({
      ...base,
      document,
      variables: { name: "path.name" },
      respond: (d) => d.environment,
    });
    expect(reshaped.schemas?.response).toBeUndefined();
    const bodyless = typedRoute({ ...base, document, variables: { name: "path.name" }, emptyBody: true });
    expect(bodyless.schemas?.response).toBeUndefined();
  });
});
