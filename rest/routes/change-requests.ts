import { z } from "zod";
import { defineRoutes } from "../route.ts";

/** Spec 2.11 selection: the REST shape is the GraphQL ChangeRequest with empty optionals dropped. */
const USER = "createdBy { id username imageUrl }";
const CHANGE = `id action conflict payload ${USER} createdAt`;
export const CHANGE_REQUEST_FIELDS = /* GraphQL */ `
  id: databaseId title environment minApprovals project state createdAt ${USER}
  features { name conflict changes { ${CHANGE} } defaultChange { action payload } }
  segments { ${CHANGE} name }
  approvals { ${USER} createdAt }
  rejections { ${USER} createdAt }
  comments { id text ${USER} createdAt }
  schedule { status scheduledAt reason failureReason }
`;

type Obj = Record<string, unknown>;

/** `o` without those of `keys` whose value is null. */
const dropNull = (o: Obj, ...keys: string[]): Obj =>
  Object.fromEntries(Object.entries(o).filter(([k, v]) => v !== null || !keys.includes(k)));

/**
 * Spec 2.11 wire shape: `conflict`, `defaultChange`, `schedule` and the schedule's reasons
 * appear only when they have a value (GraphQL answers null).
 */
function restChangeRequest(view: unknown): unknown {
  if (!view || typeof view !== "object") return view;
  const cr = view as Obj;
  const change = (c: Obj) => dropNull(c, "conflict");
  const features = (cr.features as Obj[]).map((f) =>
    dropNull({ ...f, changes: (f.changes as Obj[]).map(change) }, "conflict", "defaultChange"),
  );
  const schedule = cr.schedule && dropNull(cr.schedule as Obj, "reason", "failureReason");
  return dropNull({ ...cr, features, segments: (cr.segments as Obj[]).map(change), schedule }, "schedule");
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
const configItem = z.object({
  environment: z.string(),
  type: z.string(),
  changeRequestEnabled: z.boolean(),
  requiredApprovals: z.number().int().nullable(),
});

const crPath = "/api/admin/projects/:projectId/change-requests/:id";
const crVars = (params: Record<string, string>) => ({ project: params.projectId, id: Number(params.id) });
const asRest = (data: Obj) => restChangeRequest(Object.values(data)[0]);

export const changeRequestRoutes = defineRoutes([
  {
    method: "POST",
    path: "/api/admin/projects/:projectId/environments/:environment/change-requests",
    tag: "Change requests",
    summary: "Add changes to your Draft change request, creating it when there is none (spec 4.5)",
    document: `mutation Propose($project: String!, $environment: String!, $changes: [ChangeRequestChangeInput!]!) {
      proposeChanges(project: $project, environment: $environment, changes: $changes) { ${CHANGE_REQUEST_FIELDS} }
    }`,
    variables: ({ params, body }) => ({
      project: params.projectId,
      environment: params.environment,
      changes: Array.isArray(body) ? body : [body ?? {}],
    }),
    respond: asRest,
    schemas: { body: z.union([proposedChange, z.array(proposedChange)]), response: changeRequestSchema },
  },
  {
    method: "GET",
    path: "/api/admin/projects/:projectId/change-requests/config",
    tag: "Change requests",
    summary: "Change request configuration of each environment of a project",
    document: `query Config($project: String!) {
      changeRequestConfig(project: $project) { environment type changeRequestEnabled requiredApprovals }
    }`,
    variables: ({ params }) => ({ project: params.projectId }),
    schemas: { response: z.array(configItem) },
  },
  {
    method: "PUT",
    path: "/api/admin/projects/:projectId/environments/:environment/change-requests/config",
    tag: "Change requests",
    summary: "Turn change requests on or off for an environment, with the approvals needed (0 to 10)",
    document: `mutation UpdateConfig($project: String!, $environment: String!, $enabled: Boolean!, $approvals: Int) {
      updateChangeRequestConfig(project: $project, environment: $environment, changeRequestsEnabled: $enabled, requiredApprovals: $approvals) { environment }
    }`,
    variables: ({ params, body }) => {
      const b = (body ?? {}) as Obj;
      return {
        project: params.projectId,
        environment: params.environment,
        enabled: b.changeRequestsEnabled,
        approvals: b.requiredApprovals,
      };
    },
    status: 204,
    schemas: {
      body: z.object({
        changeRequestsEnabled: z.boolean(),
        requiredApprovals: z.number().int().min(0).max(10).optional(),
      }),
    },
  },
  {
    method: "GET",
    path: "/api/admin/projects/:projectId/change-requests/open",
    tag: "Change requests",
    summary: "Your open change requests in a project (spec 4.6)",
    deprecated: true,
    headers: { Deprecation: "true" },
    document: `query Open($project: String!) { openChangeRequests(project: $project) { ${CHANGE_REQUEST_FIELDS} } }`,
    variables: ({ params }) => ({ project: params.projectId }),
    respond: (data) => (data.openChangeRequests as unknown[]).map(restChangeRequest),
    schemas: { response: z.array(changeRequestSchema) },
  },
  {
    method: "GET",
    path: crPath,
    tag: "Change requests",
    summary: "One change request",
    document: `query One($project: String!, $id: Int!) { changeRequest(id: $id, project: $project) { ${CHANGE_REQUEST_FIELDS} } }`,
    variables: ({ params }) => crVars(params),
    respond: asRest,
    schemas: { response: changeRequestSchema },
  },
  {
    method: "PUT",
    path: `${crPath}/state`,
    tag: "Change requests",
    summary: "Move a change request to another state (review, approve, reject, cancel, apply, schedule)",
    document: `mutation State($project: String!, $id: Int!, $state: String!, $comment: String, $scheduledAt: JSON) {
      changeChangeRequestState(project: $project, id: $id, state: $state, comment: $comment, scheduledAt: $scheduledAt) { ${CHANGE_REQUEST_FIELDS} }
    }`,
    variables: ({ params, body }) => {
      const b = (body ?? {}) as Obj;
      return { ...crVars(params), state: b.state, comment: b.comment, scheduledAt: b.scheduledAt };
    },
    respond: asRest,
    errors: [400, 403, 404, 409],
    schemas: {
      body: z.object({
        state: z.string(),
        comment: z.string().optional(),
        scheduledAt: z.string().optional(),
      }),
      response: changeRequestSchema,
    },
  },
  {
    method: "PUT",
    path: `${crPath}/changes/:changeId`,
    tag: "Change requests",
    summary: "Edit one change (body: the change, or its payload)",
    document: `mutation Edit($project: String!, $id: Int!, $changeId: Int!, $payload: JSON) {
      editChangeRequestChange(project: $project, id: $id, changeId: $changeId, payload: $payload) { ${CHANGE_REQUEST_FIELDS} }
    }`,
    variables: ({ params, body }) => {
      const b = body as Obj | undefined;
      const payload = b && typeof b === "object" && !Array.isArray(b) && "action" in b ? b.payload : body;
      return { ...crVars(params), changeId: Number(params.changeId), payload };
    },
    respond: asRest,
    schemas: { body: z.union([proposedChange, z.unknown()]), response: changeRequestSchema },
  },
  {
    method: "DELETE",
    path: `${crPath}/changes/:changeId`,
    tag: "Change requests",
    summary: "Discard one change",
    document: `mutation Discard($project: String!, $id: Int!, $changeId: Int!) {
      discardChangeRequestChange(project: $project, id: $id, changeId: $changeId) { id }
    }`,
    variables: ({ params }) => ({ ...crVars(params), changeId: Number(params.changeId) }),
    status: 204,
  },
  {
    method: "DELETE",
    path: crPath,
    tag: "Change requests",
    summary: "Discard a Draft change request",
    document: `mutation DiscardDraft($project: String!, $id: Int!) { discardChangeRequest(project: $project, id: $id) }`,
    variables: ({ params }) => crVars(params),
    status: 204,
  },
  {
    method: "POST",
    path: `${crPath}/comments`,
    tag: "Change requests",
    summary: "Comment on a change request",
    document: `mutation Comment($project: String!, $id: Int!, $text: String!) {
      commentOnChangeRequest(project: $project, id: $id, text: $text) { ${CHANGE_REQUEST_FIELDS} }
    }`,
    variables: ({ params, body }) => ({ ...crVars(params), text: ((body ?? {}) as Obj).text }),
    respond: asRest,
    status: 201,
    schemas: { body: z.object({ text: z.string() }), response: changeRequestSchema },
  },
  {
    method: "PUT",
    path: `${crPath}/title`,
    tag: "Change requests",
    summary: "Set the title of a change request",
    document: `mutation Title($project: String!, $id: Int!, $title: String!) {
      updateChangeRequestTitle(project: $project, id: $id, title: $title) { id }
    }`,
    variables: ({ params, body }) => ({ ...crVars(params), title: ((body ?? {}) as Obj).title }),
    status: 204,
    schemas: { body: z.object({ title: z.string() }) },
  },
]);
