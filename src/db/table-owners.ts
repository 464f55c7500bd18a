/**
 * Who writes each table (one per model of prisma/schema.prisma). Only code under a table's
 * owner creates, updates or deletes its rows (Prisma calls and raw INSERT/UPDATE/DELETE alike);
 * any other module calls the owner's exported write functions, passing its transaction, and
 * reads through the owner's `.read.ts`. So a table's invariants and the events its changes
 * record live in one place. test/foundation/table-ownership.test.ts scans src/ and rest/ and
 * fails on a write outside its owner that EXTRA_WRITERS does not list.
 */
export const TABLE_OWNERS = {
  Project: "src/modules/projects/",
  ProjectEnvironment: "src/modules/projects/",
  Environment: "src/modules/environments/",
  ContextField: "src/modules/context-fields/",

  Feature: "src/modules/features/",
  FeatureType: "src/modules/features/",
  FeatureLink: "src/modules/features/",
  FeatureTag: "src/modules/features/",
  FeatureLifecycle: "src/modules/features/",
  FeatureMetricsHourly: "src/modules/features/",
  FeatureEnvironment: "src/modules/feature-environments/",
  FeatureStrategy: "src/modules/feature-environments/",
  FeatureStrategySegment: "src/modules/feature-environments/",
  FeatureDependency: "src/modules/dependencies/",
  StrategyDefinition: "src/modules/strategy-definitions/",
  Segment: "src/modules/segments/",
  TagType: "src/modules/tags/",
  Tag: "src/modules/tags/",
  FavoriteFeature: "src/modules/favorites/",
  FavoriteProject: "src/modules/favorites/",

  ClientMetricsHourly: "src/modules/client-metrics/",
  ClientVariantMetricsHourly: "src/modules/client-metrics/",
  ClientApplication: "src/modules/client-metrics/",
  ClientInstance: "src/modules/client-metrics/",
  UnknownFlag: "src/modules/client-metrics/",
  ImpactMetricMinute: "src/modules/client-metrics/",
  ReleasePlanTemplate: "src/modules/release-plans/",
  ReleasePlan: "src/modules/release-plans/",

  User: "src/modules/users/",
  Role: "src/modules/users/",
  Permission: "src/modules/users/",
  RolePermission: "src/modules/users/",
  ProjectMember: "src/modules/users/",
  ResetToken: "src/modules/users/",
  PasswordHistory: "src/modules/users/",
  ApiToken: "src/modules/tokens/",
  PersonalAccessToken: "src/modules/tokens/",
  UserSession: "src/modules/access/",
  /** Written by rate-limiter-flexible's RateLimiterPostgres (access/login-limits.cache.ts), not by our SQL. */
  RateLimit: "src/modules/access/",
  PublicSignupToken: "src/modules/invites/",
  PublicSignupTokenUser: "src/modules/invites/",

  /** recordEvent (events/record.ts); the only table src/events knows (test/foundation/table-ownership.test.ts). */
  Event: "src/events/",
  EventCount: "src/modules/events/",
  EventCountCursor: "src/modules/events/",
  /** The history time travel reads, written in each event's statement (time-travel/flag-history.write.ts). */
  FeatureStateVersion: "src/modules/time-travel/",

  ChangeRequest: "src/modules/change-requests/",
  ChangeRequestChange: "src/modules/change-requests/",
  ChangeRequestApproval: "src/modules/change-requests/",
  ChangeRequestRejection: "src/modules/change-requests/",
  ChangeRequestComment: "src/modules/change-requests/",
  ChangeRequestSchedule: "src/modules/change-requests/",
  ChangeRequestSetting: "src/modules/change-requests/",

  Addon: "src/modules/addons/",
  /** The webhook outbox, queued in each event's statement (addons/addon-deliveries.write.ts). */
  AddonDelivery: "src/modules/addons/",
  IntegrationEvent: "src/modules/addons/",
  Setting: "src/modules/settings/",
} as const;

export type TableName = keyof typeof TABLE_OWNERS;

/** The only writes outside a table's owner, each with the reason it cannot go through the owner. */
export const EXTRA_WRITERS: readonly { file: string; tables: readonly TableName[]; why: string }[] = [
  {
    file: "src/bootstrap.ts",
    tables: [
      "Permission",
      "Role",
      "RolePermission",
      "FeatureType",
      "Setting",
      "User",
      "Environment",
      "Project",
      "ApiToken",
    ],
    why: "the first-start seed: idempotent upserts of built-in rows before any request, with no actor and no events",
  },
  {
    file: "src/modules/access/login.write.ts",
    tables: ["User"],
    why: "a login counts failed attempts and stamps seenAt; users imports access, so access cannot call users",
  },
  {
    file: "src/modules/access/sessions.write.ts",
    tables: ["User"],
    why: "resolving a session stamps the user's seenAt (same reason as login.ts)",
  },
  {
    file: "src/modules/access/credentials.write.ts",
    tables: ["ApiToken", "PersonalAccessToken"],
    why: "resolving a token stamps its seenAt on every request path; tokens imports access, so access cannot call tokens",
  },
  {
    file: "src/modules/access/remembered-tokens.cache.ts",
    tables: ["ApiToken"],
    why: "a remembered API token still stamps its seenAt once a minute (same reason as credentials.write.ts)",
  },
];
