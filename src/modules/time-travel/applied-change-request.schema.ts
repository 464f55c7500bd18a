import { builder } from "../../builder.ts";
import { FeatureGroupRef } from "../change-requests/change-request.schema.ts";
import { changeRequestAppliedAt, flagAt } from "./history.read.ts";
import { assertProjectHistoryReadable, PastFeatureRef } from "./time-travel.schema.ts";

/*
 * What an applied change request changed from. The request keeps only its changes; the flag as
 * it was is in its history, just before the request's events (they share the apply's
 * transaction time). Defined here, beside time travel, which change requests cannot import.
 */
builder.objectField(FeatureGroupRef, "stateBeforeApply", (t) =>
  t.field({
    type: PastFeatureRef,
    nullable: true,
    description:
      "Applied requests: the flag as it was just before the request was applied (from its history). Null for a request not applied, or when the flag's history does not reach back so far.",
    resolve: async (group, _args, ctx) => {
      if (!group.changeRequest.applied) return null;
      assertProjectHistoryReadable(ctx, group.changeRequest.project);
      const appliedAt = await changeRequestAppliedAt(ctx.db, group.changeRequest.id);
      if (!appliedAt) return null;
      const before = await flagAt(ctx.db, group.name, new Date(appliedAt.getTime() - 1));
      return before?.exact ? before.state : null;
    },
  }),
);
