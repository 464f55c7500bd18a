import { lexicographicSortSchema } from "graphql";
import { builder } from "./builder.ts";
import { describeRelayTypes } from "./shared/relay-descriptions.ts";
import "./modules/environments/environments.schema.ts";
import "./modules/projects/projects.schema.ts";
import "./modules/features/strategy.schema.ts";
import "./modules/features/feature.schema.ts";
import "./modules/features/features.schema.ts";
import "./modules/features/feature-changes.schema.ts";
import "./modules/features/feature-tags.schema.ts";
import "./modules/dependencies/dependencies.schema.ts";
import "./modules/favorites/favorites.schema.ts";
import "./modules/feature-environments/feature-environments.schema.ts";
import "./modules/segments/segments.schema.ts";
import "./modules/events/events.schema.ts";
import "./modules/projects/projects.mutations.ts";
import "./modules/context-fields/context-fields.schema.ts";
import "./modules/tags/tags.schema.ts";
import "./modules/search/feature-search.schema.ts";
import "./modules/search/event-search.schema.ts";
import "./modules/users/users.schema.ts";
import "./modules/users/roles.schema.ts";
import "./modules/tokens/tokens.schema.ts";
import "./modules/ui-config/ui-config.schema.ts";
import "./modules/personal-dashboard/personal-dashboard.schema.ts";
import "./modules/live/live.schema.ts";

/** The GraphQL schema of every module (each `*.schema.ts` registers its types on the builder). */
export const schema = lexicographicSortSchema(describeRelayTypes(builder.toSchema()));
