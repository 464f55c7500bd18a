/**
 * Who writes each table (one per model of prisma/schema.prisma). Only code under a table's
 * owner creates, updates or deletes its rows (Prisma calls and raw INSERT/UPDATE/DELETE alike);
 * any other module calls the owner's exported write functions, passing its transaction, and
 * reads through the owner's `.read.ts`. So a table's invariants and the events its changes
 * record live in one place. test/foundation/table-ownership.test.ts scans src/ and rest/ and
 * fails on a write outside its owner that EXTRA_WRITERS does not list, and on a read outside its
 * owner that EXTRA_READERS (or, until it moves, test/foundation/reads-to-move.ts) does not list.
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

/**
 * The reads of a table outside its owner that stay there, each with its reason: every file of
 * `files` (a file, or a folder ending in "/") reads each of `tables`.
 */
export const EXTRA_READERS: readonly {
  files: readonly string[];
  tables: readonly TableName[];
  why: string;
}[] = [
  {
    files: ["src/modules/events/"],
    tables: ["Event"],
    why: "the audit log's reading side (event search, counts, text); src/events writes it and knows no module",
  },
  {
    files: ["src/bootstrap.ts"],
    tables: ["ApiToken", "Setting", "User"],
    why: "the first-start seed reads what it may have to seed, before any request (as its writes)",
  },

  // One statement for speed (D-09): each joins the tables of several owners in one round trip.
  {
    files: ["src/modules/flag-record/flag-record.read.ts"],
    tables: [
      "Feature",
      "FeatureDependency",
      "FeatureEnvironment",
      "FeatureStrategy",
      "FeatureStrategySegment",
      "FeatureTag",
    ],
    why: "the flag read model: the one SQL spelling of a flag's configuration, below every flag module (D-40)",
  },
  {
    files: ["src/modules/time-travel/flag-history.write.ts"],
    tables: ["Feature"],
    why: "the history row is written in each event's statement, which names the flag's rows (D-40)",
  },
  {
    files: ["src/modules/time-travel/history.read.ts"],
    tables: ["Event", "Feature"],
    why: "time travel: a project's flags now and those deleted from it since, in one statement",
  },
  {
    files: ["src/modules/search/feature-search.read.ts"],
    tables: ["Feature", "FavoriteFeature", "FeatureEnvironment", "FeatureTag"],
    why: "flag search: the page's filters, order and total in one statement",
  },
  {
    files: ["src/modules/search/feature-search-sql.logic.ts"],
    tables: ["FavoriteFeature", "FeatureEnvironment", "FeatureStrategySegment", "FeatureTag", "Segment"],
    why: "flag search: fragments of the page's one statement",
  },
  {
    files: ["src/modules/search/feature-search-items.read.ts"],
    tables: [
      "Environment",
      "Feature",
      "FeatureDependency",
      "FeatureEnvironment",
      "FeatureLifecycle",
      "FeatureStrategy",
      "FeatureStrategySegment",
      "FeatureTag",
      "Segment",
      "TagType",
      "User",
    ],
    why: "flag search: the page's items, with what each shows, in one statement",
  },
  {
    files: ["src/modules/events/collaborators.read.ts"],
    tables: ["User"],
    why: "a flag's collaborators: the users of its events, in the flag-facts statement",
  },
  {
    files: ["src/modules/events/event-search.read.ts"],
    tables: ["User"],
    why: "event search: the creator filter inside the search's one statement",
  },
  {
    files: ["src/modules/features/evaluation-metrics.write.ts"],
    tables: ["Environment", "FeatureEnvironment"],
    why: "SDK metrics: the flag-environment pairs a report may count, in one statement per batch (a hot path)",
  },
  {
    files: ["src/modules/project-insights/project-insights.read.ts"],
    tables: ["Environment", "Event", "Feature"],
    why: "DORA lead time: each flag with its first enabling in a production environment, in one statement",
  },
  {
    files: ["src/modules/import-export/export.read.ts"],
    tables: ["ContextField", "Environment", "Feature", "FeatureLink", "FeatureTag", "Segment", "TagType"],
    why: "the export document in one statement",
  },

  // The owner imports the reader's module: a read through the owner would close a module cycle.
  {
    files: [
      "src/modules/access/credentials.write.ts",
      "src/modules/access/login.write.ts",
      "src/modules/access/sessions.write.ts",
    ],
    tables: ["User"],
    why: "users imports access (the RBAC check): resolving a credential or a login is below it",
  },
  {
    files: ["src/modules/access/credentials.write.ts"],
    tables: ["ApiToken", "PersonalAccessToken"],
    why: "tokens imports access (the RBAC check): resolving a token is below it",
  },
  {
    files: ["src/modules/access/grants.logic.ts"],
    tables: ["Project", "ProjectMember", "Role", "RolePermission"],
    why: "users and projects import access (the RBAC check): a caller's grants are below them",
  },
  {
    files: [
      "src/modules/change-requests/propose.write.ts",
      "src/modules/change-requests/settings.write.ts",
      "src/modules/change-requests/view.read.ts",
    ],
    tables: ["ProjectEnvironment"],
    why: "projects imports change-requests (a project's change-request settings)",
  },
  {
    files: ["src/modules/change-requests/settings.read.ts"],
    tables: ["Project"],
    why: "projects imports change-requests (a project's change-request settings)",
  },
  {
    files: [
      "src/modules/dependencies/dependencies.schema.ts",
      "src/modules/dependencies/dependency-options.schema.ts",
    ],
    tables: ["Feature"],
    why: "features imports dependencies (a flag's parents and children)",
  },
  {
    files: [
      "src/modules/feature-environments/bulk.schema.ts",
      "src/modules/feature-environments/enablement.read.ts",
      "src/modules/feature-environments/feature-environment.write.ts",
      "src/modules/feature-environments/feature-environments.schema.ts",
      "src/modules/feature-environments/feature-lock.read.ts",
      "src/modules/feature-environments/strategy.read.ts",
    ],
    tables: ["Feature"],
    why: "features imports feature-environments (the flag locks every flag write starts with, a flag's states)",
  },
  {
    files: ["src/modules/feature-environments/enablement.write.ts"],
    tables: ["ProjectEnvironment"],
    why: "projects imports feature-environments (a project's default strategies)",
  },
  {
    files: ["src/modules/feature-environments/guards.read.ts"],
    tables: ["ChangeRequestSetting", "Segment"],
    why: "change-requests and segments import feature-environments (the guards of direct changes are below them)",
  },
  {
    files: ["src/modules/feature-environments/strategy-segments.read.ts"],
    tables: ["Segment"],
    why: "segments imports feature-environments (a strategy's segments)",
  },
  {
    files: ["src/modules/feature-environments/legal-values.read.ts"],
    tables: ["ContextField"],
    why: "context-fields imports projects, which imports feature-environments",
  },
  {
    files: ["src/modules/features/feature-create.write.ts"],
    tables: ["Project", "ProjectEnvironment"],
    why: "projects reaches features (through change-requests)",
  },
  {
    files: ["src/modules/features/features.schema.ts"],
    tables: ["ContextField", "Project"],
    why: "projects (and context-fields through it) reach features, through change-requests",
  },
  {
    files: [
      "src/modules/segments/segment.write.ts",
      "src/modules/tokens/api-tokens.write.ts",
      "src/modules/tokens/project-tokens.schema.ts",
      "src/modules/users/project-members.write.ts",
    ],
    tables: ["Project"],
    why: "projects reaches segments, tokens and users (through change-requests and users)",
  },
  {
    files: ["src/modules/users/viewer.read.ts", "src/modules/users/viewer.schema.ts"],
    tables: ["Feature", "Project"],
    why: "projects and features reach users (features imports users)",
  },
];
