import { describe, expect, it } from "vitest";
import { graphql } from "../../rest/graphql.ts";
import { type RestRequest, typedRoute } from "../../rest/route.ts";
import { ValidationError } from "../../src/shared/errors.ts";

// A route's `variables` map (rest/route.ts, VariableSource): each source read as declared, and a
// source the path cannot give refused when the route is defined. A map that does not fit its
// document is refused by the compiler: variable-map.typecheck.ts.

const UPDATE = graphql(`mutation UpdateEnvironment($name: String!, $input: UpdateEnvironmentInput!) {
  updateEnvironment(name: $name, input: $input) { name } }`);
const EVENTS = graphql(`query AddonEvents($id: Int!, $first: Int, $offset: Int) {
  addonEvents(id: $id, first: $first, offset: $offset) { id } }`);
const ENABLE = graphql(`mutation SetEnvironmentEnabled($name: String!, $enabled: Boolean!) {
  setEnvironmentEnabled(name: $name, enabled: $enabled) { name } }`);
const PROPOSE =
  graphql(`mutation Propose($project: String!, $environment: String!, $changes: [ChangeRequestChangeInput!]!) {
  proposeChanges(project: $project, environment: $environment, changes: $changes) { id } }`);
const base = { method: "PUT", tag: "Test", summary: "A test route" } as const;

const request = (req: Partial<RestRequest> & { search?: string }): RestRequest => ({
  params: req.params ?? {},
  query: new URLSearchParams(req.search ?? ""),
  body: req.body,
});

const variablesOf = (route: ReturnType<typeof typedRoute>, req: RestRequest) => {
  if (!route.variables) throw new Error("the route has no variables");
  return route.variables(req);
};

describe("a route's variables map", () => {
  it("reads a path parameter, a body field's keys and the body's fields as declared", () => {
    const route = typedRoute({
      ...base,
      path: "/api/admin/environments/update/:name",
      document: UPDATE,
      variables: { name: "path.name", input: { bodyFields: ["type", "sortOrder"] } },
    });
    const body = { sortOrder: 2, name: "ignored", type: "production" };
    // The listed fields the body has, in the listed order; absent ones left out.
    expect(variablesOf(route, request({ params: { name: "dev" }, body }))).toEqual({
      name: "dev",
      input: { type: "production", sortOrder: 2 },
    });
    expect(
      Object.keys(variablesOf(route, request({ params: { name: "dev" }, body })).input as object),
    ).toEqual(["type", "sortOrder"]);
    expect(variablesOf(route, request({ params: { name: "dev" }, body: { type: "x" } }))).toEqual({
      name: "dev",
      input: { type: "x" },
    });
    // A body that is no object has no fields: GraphQL then names what is missing.
    expect(variablesOf(route, request({ params: { name: "dev" }, body: [1] }))).toEqual({
      name: "dev",
      input: {},
    });
  });

  it("reads integers from the path (a 400 naming it otherwise) and the query, and takes constants", () => {
    const route = typedRoute({
      ...base,
      path: "/api/admin/addons/:id/events",
      document: EVENTS,
      variables: { id: "path.id:int", first: "query.limit:int", offset: 0 },
    });
    expect(variablesOf(route, request({ params: { id: "7" }, search: "limit=20" }))).toEqual({
      id: 7,
      first: 20,
      offset: 0,
    });
    const absent = variablesOf(route, request({ params: { id: "7" } }));
    expect(Object.hasOwn(absent, "first")).toBe(true);
    expect(absent.first).toBeUndefined();
    expect(() => variablesOf(route, request({ params: { id: "seven" } }))).toThrow(ValidationError);
    expect(() => variablesOf(route, request({ params: { id: "seven" } }))).toThrow(
      'Invalid value "seven" for the "id" parameter: expected an integer.',
    );
    expect(() => variablesOf(route, request({ params: { id: "7" }, search: "limit=-1" }))).toThrow(
      'Invalid value "-1" for the "limit" parameter: expected a non-negative integer.',
    );
  });

  it("reads one body field (undefined when absent), the body as sent or as an object, and calls functions", () => {
    const field = typedRoute({
      ...base,
      path: "/api/admin/environments/:name/on",
      document: ENABLE,
      variables: { name: "query.name", enabled: "body.enabled" },
    });
    expect(variablesOf(field, request({ search: "name=a&name=b", body: { enabled: false } }))).toEqual({
      name: "a",
      enabled: false,
    });
    const absent = variablesOf(field, request({ body: "not an object" }));
    expect(Object.keys(absent)).toEqual(["name", "enabled"]);
    expect(absent.enabled).toBeUndefined();
    // Own fields only: a body field is never one of Object's members.
    expect(variablesOf(field, request({ body: {} })).enabled).toBeUndefined();
    expect(
      typeof variablesOf(
        typedRoute({
          ...base,
          path: "/x",
          document: ENABLE,
          variables: { name: "body.constructor", enabled: true },
        }),
        request({ body: {} }),
      ).name,
    ).toBe("undefined");

    const whole = typedRoute({
      ...base,
      path: "/api/admin/projects/:projectId/environments/:environment/change-requests",
      document: PROPOSE,
      variables: {
        project: "path.projectId",
        environment: "path.environment",
        changes: ({ body }) => (Array.isArray(body) ? body : [body]),
      },
    });
    expect(
      variablesOf(whole, request({ params: { projectId: "p", environment: "e" }, body: { action: "x" } })),
    ).toEqual({ project: "p", environment: "e", changes: [{ action: "x" }] });

    const object = typedRoute({
      ...base,
      path: "/x",
      document: PROPOSE,
      variables: { project: "body:object", environment: "body", changes: "body" },
    });
    expect(() => variablesOf(object, request({ body: [] }))).toThrow(
      "The request body must be a JSON object.",
    );
    expect(variablesOf(object, request({ body: { a: 1 } }))).toEqual({
      project: { a: 1 },
      environment: { a: 1 },
      changes: { a: 1 },
    });
  });

  it("leaves out a variable whose body field the body does not have, with `?`", () => {
    const route = typedRoute({
      ...base,
      path: "/api/admin/environments/:name/on",
      document: ENABLE,
      variables: { name: "path.name", enabled: "body.enabled?" },
    });
    expect(variablesOf(route, request({ params: { name: "dev" }, body: { enabled: true } }))).toEqual({
      name: "dev",
      enabled: true,
    });
    // Left out, not undefined: GraphQL then reports the variable as not provided.
    expect(Object.keys(variablesOf(route, request({ params: { name: "dev" }, body: {} })))).toEqual(["name"]);
    expect(variablesOf(route, request({ params: { name: "dev" }, body: { enabled: null } }))).toEqual({
      name: "dev",
      enabled: null,
    });
  });

  it("refuses, when the route is defined, a path parameter its path does not have and an unknown source", () => {
    // A path that is not a literal type cannot be checked by the compiler: the definition checks it.
    const path: string = "/api/admin/environments/:name";
    expect(() =>
      typedRoute({ ...base, path, document: ENABLE, variables: { name: "path.nme", enabled: true } }),
    ).toThrow("PUT /api/admin/environments/:name, variable $name: no path parameter :nme");
    expect(() =>
      typedRoute({
        ...base,
        path,
        document: ENABLE,
        // @ts-expect-error: not a source
        variables: { name: "params.name", enabled: true },
      }),
    ).toThrow('PUT /api/admin/environments/:name, variable $name: unknown source "params.name"');
  });
});
