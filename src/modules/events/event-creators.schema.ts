import { builder } from "../../builder.ts";
import { ADMIN_TOKEN_USER_ID, SYSTEM_USER_ID } from "../../shared/actor.ts";
import { userNamesWithIds } from "../users/user.read.ts";
import { visibilityOf } from "./visibility.logic.ts";

type EventCreator = { id: number; name: string };

const EventCreatorRef = builder.objectRef<EventCreator>("EventCreator").implement({
  description: "Someone who made changes recorded in the audit log.",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "User id (-1337: the system, -42: an admin API token)." }),
    name: t.exposeString("name", {
      description: "Name, else username, else email, else as the events name them.",
    }),
  }),
});

const FIXED_NAMES = new Map([
  [SYSTEM_USER_ID, "Unleash System"],
  [ADMIN_TOKEN_USER_ID, "Unleash Admin Token"],
]);

builder.queryField("eventCreators", (t) =>
  t.field({
    type: [EventCreatorRef],
    description:
      'The distinct authors of the events the caller may read, by id; -1337 is named "Unleash System", -42 "Unleash Admin Token", as Unleash names them.',
    authScopes: { authenticated: true },
    resolve: async (_root, _args, ctx) => {
      const groups = await ctx.db.event.groupBy({
        by: ["createdByUserId"],
        where: { ...visibilityOf(ctx).where, createdByUserId: { not: null } },
        _max: { createdBy: true },
        orderBy: { createdByUserId: "asc" },
      });
      const ids = groups.map((g) => g.createdByUserId).filter((id): id is number => id !== null);
      const users = await userNamesWithIds(
        ctx.db,
        ids.filter((id) => id > 0),
      );
      return groups.map((g) => {
        const id = g.createdByUserId as number;
        const user = users.find((u) => u.id === id);
        const name =
          FIXED_NAMES.get(id) ?? user?.name ?? user?.username ?? user?.email ?? g._max.createdBy ?? "unknown";
        return { id, name };
      });
    },
  }),
);
