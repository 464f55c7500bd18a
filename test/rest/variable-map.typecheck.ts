import { graphql } from "../../rest/graphql.ts";
import { typedRoute } from "../../rest/route.ts";

// Compile-time checks of a route's `variables` map and `respond` (rest/route.ts), run by
// `npm run typecheck`: each @ts-expect-error line must fail to compile (an unused one fails the
// check). Never run: the first route would already be refused at definition
// (variable-map.test.ts tests that).

const UPDATE = graphql(`mutation UpdateEnvironment($name: String!, $input: UpdateEnvironmentInput!) {
  updateEnvironment(name: $name, input: $input) { name } }`);
const EVENTS = graphql(`query AddonEvents($id: Int!, $first: Int, $offset: Int) {
  addonEvents(id: $id, first: $first, offset: $offset) { id } }`);
const base = { method: "PUT", tag: "Test", summary: "A test route" } as const;

export function mapsTheCompilerRefuses() {
  const path = "/api/admin/environments/update/:name";
  const on = { ...base, path, document: UPDATE } as const;
  return [
    // @ts-expect-error: the path has no :nme
    typedRoute({ ...on, variables: { name: "path.nme", input: "body" } }),
    // @ts-expect-error: $input is required
    typedRoute({ ...on, variables: { name: "path.name" } }),
    // @ts-expect-error: the document has no $extra
    typedRoute({ ...on, variables: { name: "path.name", input: "body", extra: 1 } }),
    // @ts-expect-error: UpdateEnvironmentInput has no field `nope`
    typedRoute({ ...on, variables: { name: "path.name", input: { bodyFields: ["nope"] } } }),
    // @ts-expect-error: $id is an Int: a path string does not fit, "path.id:int" does
    typedRoute({ ...base, path: "/x/:id", document: EVENTS, variables: { id: "path.id" } }),
    // @ts-expect-error: a function gives the required variables too
    typedRoute({ ...on, variables: () => ({ name: "a" }) }),
    typedRoute({
      ...on,
      variables: { name: "path.name", input: "body" },
      // @ts-expect-error: `respond` reads the document's result
      respond: (d) => d.updateEnvironment.nam,
    }),
  ];
}
