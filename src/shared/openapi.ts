/**
 * Pieces of the OpenAPI document shared by the REST route table (rest/openapi.ts) and the
 * endpoints outside it (SDK, Edge, auth, invite and health paths).
 */

type JsonSchema = Record<string, unknown>;

/** A JSON body or response's `content`. */
export const jsonContent = (schema: JsonSchema) => ({ "application/json": { schema } });

/** A required JSON request body. */
export const jsonRequestBody = (schema: JsonSchema) => ({ required: true, content: jsonContent(schema) });

/** An error response: its body is the `Error` schema of the document's components. */
export const errorResponseDoc = (description: string) => ({
  description,
  content: jsonContent({ $ref: "#/components/schemas/Error" }),
});

/** A 413: the body is past the route's limit. */
export const payloadTooLargeDoc = errorResponseDoc(
  "The body is larger than VEXIL_MAX_BODY_BYTES (PayloadTooLargeError).",
);
