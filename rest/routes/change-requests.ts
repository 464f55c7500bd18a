import { z } from "zod";
import { bodyRecord } from "../body-fields.ts";
import { graphql, type ResultOf } from "../graphql.ts";
import { defineRoutes, type RestRequest, typedRoute } from "../route.ts";
import { withoutNull } from "../shape.ts";

/** Spec 2.11 selection: the REST shape is the GraphQL ChangeRequest with empty optionals dropped. */
const ChangeRequestFields = graphql(`
  fragment ChangeRequestFields on ChangeRequest {
    id: databaseId title environment minApprovals project state createdAt createdBy { id username imageUrl }
    features {
      name conflict
      changes { id action conflict payload createdBy { id username imageUrl } createdAt }
      defaultChange { action payload }
    }
    segments { id action conflict payload createdBy { id username imageUrl } createdAt name }
    approvals { createdBy { id username imageUrl } createdAt }
    rejections { createdBy { id username imageUrl } createdAt }
    comments { id text createdBy { id username imageUrl } createdAt }
    schedule { status scheduledAt reason failureReason }
  }
`);

/**
 * Spec 2.11 wire shape: `conflict`, `defaultChange`, `schedule` and the schedule's reasons
 * appear only when they have a value (GraphQL answers null).
 */
function restChangeRequest(cr: ResultOf<typeof ChangeRequestFields>) {
  const change = <C extends { conflict: string | null }>(c: C) => withoutNull(c, "conflict");
  const features = cr.features.map((f) =>
    withoutNull({ ...f, changes: f.changes.map(change) }, "conflict", "defaultChange"),
  );
  const schedule = cr.schedule && withoutNull(cr.schedule, "reason", "failureReason");
  return withoutNull({ ...cr, features, segments: cr.segments.map(change), schedule }, "schedule");
}

const userSchema = z.object({
  id: z.number().int(),
  username: z.string().nullable(),
  imageUrl: z.string().nullable(),
});
const changeSchema = z.object({
  id: z.number().int(),
  action: z.string(),
  conflict: z.string().optional(),
  payload: z.unknown(),
  createdBy: userSchema,
  createdAt: z.string(),
});
const changeRequestSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  environment: z.string(),
  minApprovals: z.number().int(),
  project: z.string(),
  state: z.enum(["Draft", "In review", "Approved", "Applied", "Cancelled", "Rejected", "Scheduled"]),
  createdBy: userSchema,
  createdAt: z.string(),
  features: z.array(
    z.object({
      name: z.string(),
      conflict: z.string().optional(),
      changes: z.array(changeSchema),
      defaultChange: z.object({ action: z.string(), payload: z.unknown() }).optional(),
    }),
  ),
  segments: z.array(changeSchema.extend({ name: z.string() })),
  approvals: z.array(z.object({ createdBy: userSchema, createdAt: z.string() })),
  rejections: z.array(z.object({ createdBy: userSchema, createdAt: z.string() })),
  comments: z.array(
    z.object({ id: z.number().int(), text: z.string(), createdBy: userSchema, createdAt: z.string() }),
  ),
  schedule: z
    .object({
      status: z.enum(["pending", "failed", "suspended"]),
      scheduledAt: z.string(),
      reason: z.string().optional(),
      failureReason: z.string().nullable().optional(),
    })
    .optional(),
});
const proposedChange = z.object({
  action: z.string(),
  feature: z.string().optional(),
  payload: z.unknown().optional(),
});

const crPath = "/api/admin/projects/:projectId/change-requests/:id";
/** The change request of the path, as GraphQL arguments (its id read as JavaScript reads a number). */
const CHANGE_REQUEST = {
  project: "path.projectId",
  id: ({ params }: RestRequest) => Number(params.id),
} as const;

export const changeRequestRoutes = defineRoutes([
  typedRoute({
    method: "POST",
    path: "/api/admin/projects/:projectId/environments/:environment/change-requests",
    tag: "Change requests",
    summary: "Add changes to your Draft change request, creating it when there is none (spec 4.5)",
    document: graphql(
      `mutation Propose($project: String!, $environment: String!, $changes: [ChangeRequestChangeInput!]!) {
        proposeChanges(project: $project, environment: $environment, changes: $changes) { ...ChangeRequestFields } }`,
      [ChangeRequestFields],
    ),
    variables: {
      project: "path.projectId",
      environment: "path.environment",
      // One change or a list of them.
      changes: ({ body }) => (Array.isArray(body) ? body : [body ?? {}]),
    },
    respond: (data) => restChangeRequest(data.proposeChanges),
    schemas: { body: z.union([proposedChange, z.array(proposedChange)]), response: changeRequestSchema },
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/change-requests/config",
    tag: "Change requests",
    summary: "Change request configuration of each environment of a project",
    document: graphql(`query Config($project: String!) {
      changeRequestConfig(project: $project) { environment type changeRequestEnabled requiredApprovals } }`),
    variables: { project: "path.projectId" },
  }),
  typedRoute({
    method: "PUT",
    path: "/api/admin/projects/:projectId/environments/:environment/change-requests/config",
    tag: "Change requests",
    summary: "Turn change requests on or off for an environment, with the approvals needed (0 to 10)",
    document:
      graphql(`mutation UpdateConfig($project: String!, $environment: String!, $enabled: Boolean!, $approvals: Int) {
      updateChangeRequestConfig(project: $project, environment: $environment, changeRequestsEnabled: $enabled, requiredApprovals: $approvals) {
        environment } }`),
    variables: {
      project: "path.projectId",
      environment: "path.environment",
      enabled: "body.changeRequestsEnabled",
      approvals: "body.requiredApprovals",
    },
    status: 204,
    schemas: {
      body: z.object({
        changeRequestsEnabled: z.boolean(),
        requiredApprovals: z.number().int().min(0).max(10).optional(),
      }),
    },
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/change-requests/open",
    tag: "Change requests",
    summary: "Your open change requests in a project (spec 4.6)",
    deprecated: true,
    headers: { Deprecation: "true" },
    document: graphql(
      `query Open($project: String!) { openChangeRequests(project: $project) { ...ChangeRequestFields } }`,
      [ChangeRequestFields],
    ),
    variables: { project: "path.projectId" },
    respond: (data) => data.openChangeRequests.map(restChangeRequest),
    schemas: { response: z.array(changeRequestSchema) },
  }),
  typedRoute({
    method: "GET",
    path: crPath,
    tag: "Change requests",
    summary: "One change request",
    document: graphql(
      `query One($project: String!, $id: Int!) { changeRequest(id: $id, project: $project) { ...ChangeRequestFields } }`,
      [ChangeRequestFields],
    ),
    variables: CHANGE_REQUEST,
    respond: ({ changeRequest }) => changeRequest && restChangeRequest(changeRequest),
    schemas: { response: changeRequestSchema },
  }),
  typedRoute({
    method: "PUT",
    path: `${crPath}/state`,
    tag: "Change requests",
    summary: "Move a change request to another state (review, approve, reject, cancel, apply, schedule)",
    document: graphql(
      `mutation State($project: String!, $id: Int!, $state: String!, $comment: String, $scheduledAt: JSON) {
        changeChangeRequestState(project: $project, id: $id, state: $state, comment: $comment, scheduledAt: $scheduledAt) {
          ...ChangeRequestFields } }`,
      [ChangeRequestFields],
    ),
    variables: {
      ...CHANGE_REQUEST,
      state: "body.state",
      comment: "body.comment",
      scheduledAt: "body.scheduledAt",
    },
    respond: (data) => restChangeRequest(data.changeChangeRequestState),
    errors: [400, 403, 404, 409],
    schemas: {
      body: z.object({
        state: z.string(),
        comment: z.string().optional(),
        scheduledAt: z.string().optional(),
      }),
      response: changeRequestSchema,
    },
  }),
  typedRoute({
    method: "PUT",
    path: `${crPath}/changes/:changeId`,
    tag: "Change requests",
    summary: "Edit one change (body: the change, or its payload)",
    document: graphql(
      `mutation Edit($project: String!, $id: Int!, $changeId: Int!, $payload: JSON) {
        editChangeRequestChange(project: $project, id: $id, changeId: $changeId, payload: $payload) {
          ...ChangeRequestFields } }`,
      [ChangeRequestFields],
    ),
    variables: {
      ...CHANGE_REQUEST,
      changeId: ({ params }) => Number(params.changeId),
      // The whole change (`{action, payload}`) or its payload alone.
      payload: ({ body }) =>
        body && typeof body === "object" && !Array.isArray(body) && "action" in body
          ? bodyRecord(body).payload
          : body,
    },
    respond: (data) => restChangeRequest(data.editChangeRequestChange),
    schemas: { body: z.union([proposedChange, z.unknown()]), response: changeRequestSchema },
  }),
  typedRoute({
    method: "DELETE",
    path: `${crPath}/changes/:changeId`,
    tag: "Change requests",
    summary: "Discard one change",
    document: graphql(`mutation Discard($project: String!, $id: Int!, $changeId: Int!) {
      discardChangeRequestChange(project: $project, id: $id, changeId: $changeId) { id } }`),
    variables: { ...CHANGE_REQUEST, changeId: ({ params }) => Number(params.changeId) },
    status: 204,
  }),
  typedRoute({
    method: "DELETE",
    path: crPath,
    tag: "Change requests",
    summary: "Discard a Draft change request",
    document: graphql(
      `mutation DiscardDraft($project: String!, $id: Int!) { discardChangeRequest(project: $project, id: $id) }`,
    ),
    variables: CHANGE_REQUEST,
    status: 204,
  }),
  typedRoute({
    method: "POST",
    path: `${crPath}/comments`,
    tag: "Change requests",
    summary: "Comment on a change request",
    document: graphql(
      `mutation Comment($project: String!, $id: Int!, $text: String!) {
        commentOnChangeRequest(project: $project, id: $id, text: $text) { ...ChangeRequestFields } }`,
      [ChangeRequestFields],
    ),
    variables: { ...CHANGE_REQUEST, text: "body.text" },
    respond: (data) => restChangeRequest(data.commentOnChangeRequest),
    status: 201,
    schemas: { body: z.object({ text: z.string() }), response: changeRequestSchema },
  }),
  typedRoute({
    method: "PUT",
    path: `${crPath}/title`,
    tag: "Change requests",
    summary: "Set the title of a change request",
    document: graphql(`mutation Title($project: String!, $id: Int!, $title: String!) {
      updateChangeRequestTitle(project: $project, id: $id, title: $title) { id } }`),
    variables: { ...CHANGE_REQUEST, title: "body.title" },
    status: 204,
    schemas: { body: z.object({ title: z.string() }) },
  }),
]);
