import { z } from "zod";
import { defineRoutes } from "../route.ts";

export const personalDashboardRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/admin/personal-dashboard",
    tag: "Personal dashboard",
    summary: "Get the calling user's dashboard (spec 4.10)",
    description: "A credential without a user (an admin API token) gets the personal lists empty.",
    document: `query PersonalDashboard { personalDashboard {
      admins { id name username imageUrl email }
      projectOwners { ownerType name imageUrl email }
      projects { id name health memberCount featureCount }
      flags { name project type }
    } }`,
    schemas: {
      response: z.object({
        admins: z.array(
          z.object({
            id: z.number().int(),
            name: z.string().nullable(),
            username: z.string().nullable(),
            imageUrl: z.string().nullable(),
            email: z.string().nullable(),
          }),
        ),
        projectOwners: z.array(
          z.object({
            ownerType: z.literal("user"),
            name: z.string(),
            imageUrl: z.string().nullable(),
            email: z.string().nullable(),
          }),
        ),
        projects: z.array(
          z.object({
            id: z.string(),
            name: z.string(),
            health: z.number().int(),
            memberCount: z.number().int(),
            featureCount: z.number().int(),
          }),
        ),
        flags: z.array(z.object({ name: z.string(), project: z.string(), type: z.string() })),
      }),
    },
    errors: [],
  },
]);
