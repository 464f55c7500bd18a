import type { Route } from "../route.ts";
import { eventRoutes } from "./events.ts";

/** Every REST route; each feature slice contributes its own list. */
export const allRoutes: Route[] = [...eventRoutes];
