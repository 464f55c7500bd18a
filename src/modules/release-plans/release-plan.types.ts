import type {
  MilestonePayload,
  ReleasePlanPayload,
  ReleaseTemplatePayload,
  SafeguardPayload,
} from "../../events/payloads.ts";

// A release template, its milestones, and a plan as this module keeps them (the events carry
// the same shapes).

export type Milestone = MilestonePayload;
export type Safeguard = SafeguardPayload;
export type ReleaseTemplate = ReleaseTemplatePayload & { createdAt: Date; archivedAt: Date | null };

/** `active`: moves on and is watched; `paused`: neither, until resumed. */
export type PlanState = "active" | "paused";

export type ReleasePlan = Omit<ReleasePlanPayload, "milestones" | "safeguards"> & {
  featureName: string;
  projectId: string;
  environment: string;
  milestones: Milestone[];
  safeguards: Safeguard[];
  activeIndex: number | null;
  milestoneStartedAt: Date | null;
  state: PlanState;
  pausedAt: Date | null;
  pauseReason: unknown;
  /** In an environment requiring change requests: the request opened for the next (timed) milestone. */
  stepChangeRequestId: number | null;
  version: number;
  createdAt: Date;
};
