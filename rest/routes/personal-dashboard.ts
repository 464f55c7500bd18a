import { z } from "zod";
import { graphql } from "../graphql.ts";
import { firstFieldSchema } from "../result-schema.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import { withoutNull } from "../shape.ts";

const PERSONAL_DASHBOARD = graphql(`query PersonalDashboard { personalDashboard {
  admins { id name username imageUrl email }
  projectOwners { ownerType name imageUrl email }
  projects { id name health memberCount featureCount }
  flags { name project type }
} }`);

export const personalDashboardRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/personal-dashboard",
    tag: "Personal dashboard",
    summary: "Get the calling user's dashboard (spec 4.10)",
    description: "A credential without a user (an admin API token) gets the personal lists empty.",
    document: PERSONAL_DASHBOARD,
    // Unleash's projectOwnersSchema: a project's owners are users here (`system` only in the project view).
    schemas: {
      response: firstFieldSchema(PERSONAL_DASHBOARD, { "projectOwners.ownerType": z.literal("user") }),
    },
    errors: [],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/personal-dashboard/:projectId",
    tag: "Personal dashboard",
    summary: "Get personal project details",
    description:
      "The project's 10 newest events, onboarding status, owners (`system` when none), the caller's roles in it and its health. `avgHealthCurrentWindow`/`avgHealthPastWindow` are null: Vexil keeps no health history.",
    document:
      graphql(`query PersonalDashboardProject($projectId: String!) { personalDashboardProject(projectId: $projectId) {
      latestEvents { id summary createdBy createdByImageUrl createdAt }
      onboardingStatus { status feature }
      owners { ownerType name imageUrl email }
      roles { id name type }
      insights { avgHealthCurrentWindow avgHealthPastWindow totalFlags activeFlags staleFlags potentiallyStaleFlags health technicalDebt }
    } }`),
    variables: { projectId: "path.projectId" },
    // Unleash: `feature` only once a first flag exists; the `system` owner without a person's fields.
    respond: ({ personalDashboardProject: d }) => ({
      ...d,
      onboardingStatus: withoutNull(d.onboardingStatus, "feature"),
      owners: d.owners.map((o) => (o.ownerType === "system" ? { ownerType: "system" } : o)),
    }),
    schemas: {
      response: z.object({
        latestEvents: z.array(
          z.object({
            id: z.number().int().min(1),
            summary: z.string().nullable(),
            createdBy: z.string(),
            createdByImageUrl: z.string(),
            createdAt: z.string().datetime(),
          }),
        ),
        onboardingStatus: z.union([
          z.object({ status: z.enum(["onboarding-started", "sdk-connected", "onboarded"]) }).strict(),
          z.object({ status: z.literal("first-flag-created"), feature: z.string() }).strict(),
        ]),
        owners: z.union([
          z
            .array(
              z.object({
                ownerType: z.literal("user"),
                name: z.string(),
                imageUrl: z.string().nullable(),
                email: z.string().nullable(),
              }),
            )
            .min(1),
          z.array(z.object({ ownerType: z.literal("system") })).length(1),
        ]),
        roles: z.array(
          z.object({ id: z.number().int(), name: z.string(), type: z.enum(["custom", "project"]) }),
        ),
        insights: z.object({
          avgHealthCurrentWindow: z.number().int().min(0).nullable(),
          avgHealthPastWindow: z.number().int().min(0).nullable(),
          totalFlags: z.number().int().min(0),
          activeFlags: z.number().int().min(0),
          staleFlags: z.number().int().min(0),
          potentiallyStaleFlags: z.number().int().min(0),
          health: z.number().int().min(0),
          technicalDebt: z.number().int().min(0).max(100),
        }),
      }),
    },
    errors: [404],
  }),
]);
