/**
 * Differences reviewed one operation at a time (issue 37, second round): each rule names the
 * operation, the callers or the outcome it covers, and why the difference stays. Decisions are in
 * docs/decisions.md (D-20 gathers the small ones the peer-diff found).
 */
import type { Outcome } from "./compare.ts";
import type { Caller, Variant } from "./corpus.ts";
import type { ReasonKind } from "./reasons.ts";

export type Rule = {
  method?: string;
  path?: RegExp;
  caller?: Caller[];
  variant?: Variant[];
  when?: (o: Outcome) => boolean;
  kind: ReasonKind;
  text: string;
};

const status = (vexil: number, unleash: number) => (o: Outcome) =>
  o.vexil.status === vexil && o.unleash.status === unleash;
const shape = (o: Outcome) => o.statusEqual && o.vexil.status < 400;
const EDITOR_ROLE =
  "D-12: Vexil's Editor holds every permission but ADMIN (tokens, environments, tags included); Unleash 8.2's Editor lacks this one";

/** Statuses that differ for a recorded reason. */
export const STATUS_BY_OPERATION: Rule[] = [
  {
    path: /^\/api\/admin\/(api-tokens(\/\{token\})?|environments\/(sort-order|\{name\}\/(on|off))|segments\/strategies)$/,
    caller: ["editor"],
    when: (o) => o.unleash.status === 403 && o.vexil.status !== 403,
    kind: "deliberate",
    text: EDITOR_ROLE,
  },
  {
    method: "DELETE",
    path: /^\/api\/admin\/api-tokens\/\{token\}$/,
    kind: "security",
    text: "D-29: Vexil never keeps a token's secret, so it deletes tokens by id; the secret in the path is not an id (400)",
  },
  {
    method: "DELETE",
    path: /^\/api\/admin\/projects\/\{projectId\}\/api-tokens\/\{token\}$/,
    kind: "deliberate",
    text: "D-29: removing an unknown token from a project is 200 with no event; Unleash answers 404",
  },
  {
    path: /^\/api\/admin\/(context|projects\/\{projectId\}\/context)\/validate$/,
    caller: ["viewer"],
    kind: "deliberate",
    text: "D-20: name checks write nothing and tell only what the list already shows, so only the tag-type check needs a permission",
  },
  {
    method: "POST",
    path: /^\/api\/admin\/tag-types\/validate$/,
    caller: ["viewer"],
    kind: "security",
    text: "D-20 and D-12: the tag-type check needs UPDATE_TAG_TYPE, checked before the body; Unleash validates the body first",
  },
  {
    path: /^\/api\/admin\/(tags|projects\/\{projectId\}\/features\/\{featureName\}\/variants-batch|segments\/strategies)$/,
    caller: ["viewer"],
    when: (o) => o.vexil.status === 403 && o.unleash.status !== 403,
    kind: "security",
    text: "D-12: Vexil checks the permission before the body; here Unleash validates the body first (400/409 to a caller who may not write)",
  },
  {
    method: "GET",
    path: /^\/api\/admin\/events$/,
    kind: "deliberate",
    text: "D-12: every caller reads the events it may see (a non-admin: its projects' events, never a project-less one), on every event route; Unleash 8.2 keeps this deprecated list for admins",
  },
  {
    path: /^\/api\/admin\/projects\/\{projectId\}\/context\/\{contextField\}$/,
    kind: "deliberate",
    text: "D-23: project routes reach only that project's context fields; the fixture's field is a root field (Unleash serves it through any project)",
  },
  {
    method: "PUT",
    path: /^\/api\/admin\/(context\/\{contextField\}|tag-types\/\{name\}|projects\/\{projectId\}\/features\/\{featureName\})$/,
    variant: ["invalid"],
    kind: "deliberate",
    text: "D-19: the path names the object; a body without its `name` changes the rest (Unleash's schema requires the name again)",
  },
  {
    method: "POST",
    path: /^\/api\/admin\/metrics\/applications\/\{appName\}$/,
    variant: ["invalid"],
    kind: "deliberate",
    text: "D-30: the path names the application; a body without `appName` sets the rest (Unleash's schema requires it again)",
  },
  {
    path: /\/variants(-batch)?$/,
    when: (o) => o.unleash.status === 403 || o.unleash.status === 400,
    kind: "spec",
    text: "spec 2.5: a flag environment has its own variants; Unleash 8.2 refuses to set them (403 InvalidOperationError: strategy variants replaced them; 400 for this body)",
  },
  {
    method: "DELETE",
    path: /^\/api\/admin\/projects\/\{projectId\}\/features\/\{featureName\}(\/environments\/.*)?$/,
    when: (o) => o.vexil.name === "ArchivedFeatureError",
    kind: "deliberate",
    text: "D-19/D-21: the flag was archived one step earlier (both agreed); a change to an archived flag, archiving it again included, is 400 ArchivedFeatureError, where Unleash answers 202/200/404",
  },
  {
    method: "DELETE",
    path: /\/dependencies(\/\{parent\})?$/,
    kind: "deliberate",
    text: "D-21/D-19: removing dependencies a flag does not have is a 200 no-op; Unleash answers 404",
  },
  {
    method: "DELETE",
    path: /^\/api\/admin\/projects\/\{projectId\}\/environments\/\{environment\}$/,
    kind: "deliberate",
    text: "D-20: the Editor removed the environment from the project one step earlier (both 200); removing it again is 404 (nothing to remove), Unleash answers 200",
  },
  {
    method: "DELETE",
    path: /^\/api\/admin\/tags\/\{type\}\/\{value\}$/,
    kind: "fixture",
    text: "the tag type `simple` was deleted one step earlier (both 200): Vexil deletes its tags with it (a tag cannot outlive its type), Unleash keeps them",
  },
  {
    method: "DELETE",
    path: /^\/api\/admin\/user\/tokens\/\{id\}$/,
    kind: "deliberate",
    text: "D-18/D-20: deleting an unknown personal access token is 404 NotFoundError; Unleash answers 200",
  },
  {
    path: /^\/api\/admin\/user\/tokens$/,
    caller: ["admin"],
    kind: "deliberate",
    text: "D-20: an admin token is not a user and has no personal access tokens: Vexil lists none and refuses to create one (403 NoAccessError); Unleash answers 403 ForbiddenError to both",
  },
  {
    path: /^\/api\/admin\/user\/profile$/,
    caller: ["admin"],
    kind: "deliberate",
    text: "D-20: an admin token is not a user: Vexil answers an empty profile, Unleash 400 BadDataError",
  },
  {
    path: /^\/api\/admin\/user\/roles$/,
    kind: "deliberate",
    text: "D-20: without `projectId` Vexil answers the caller's roles everywhere; Unleash 8.2 requires the query parameter (400)",
  },
  {
    path: /^\/api\/admin\/metrics\/instances\/\{appName\}\/environment\/\{environment\}$/,
    kind: "deliberate",
    text: "D-18: an unknown application is 404 NotFoundError; Unleash answers an empty list",
  },
  {
    path: /^\/api\/admin\/projects\/\{projectId\}\/features\/\{child\}\/dependencies$/,
    method: "POST",
    kind: "fixture",
    text: "the sampled body names parent `string`, which exists on neither server: Vexil answers 404 for it; Unleash refuses the link first (403 InvalidOperationError)",
  },
  {
    path: /^\/api\/admin\/features-batch\/(import|validate)$/,
    kind: "fixture",
    text: "the sampled body names project and environment `string`, which exist on neither server: Vexil answers 404 for them first; Unleash checks the import permissions per flag first (403/400), and its validation lists them as errors (200)",
  },
  {
    path: /^\/api\/admin\/playground\/advanced$/,
    kind: "fixture",
    text: "the sampled body names project and environment `string`, which exist on neither server: Vexil answers 404; Unleash evaluates nothing and answers an empty result",
  },
  {
    path: /^\/api\/admin\/segments\/strategies$/,
    when: status(404, 201),
    kind: "deliberate",
    text: "D-20: the sampled strategy id exists on neither server: Vexil answers 404; Unleash links a segment to a strategy that does not exist (201)",
  },
  {
    path: /^\/api\/admin\/ui-config\/cors$/,
    kind: "fixture",
    text: "the sampled body's origin `string` is not an origin (Vexil 400); Unleash 8.2 answers this admin token 404",
  },
  {
    path: /^\/invite\/\{token\}\/signup$/,
    when: status(400, 201),
    kind: "security",
    text: "D-14: every password Vexil stores passes its one password policy (the sampled body's is 7 characters), an invite sign-up's too; Unleash 8.2 takes any password there",
  },
  {
    path: /^\/auth\/reset\/password$/,
    kind: "security",
    text: "D-14: Vexil checks the reset token before the new password (401 InvalidTokenError), so a caller without a valid link learns nothing; Unleash checks the password first",
  },
  {
    path: /^\/edge\/validate$/,
    kind: "deliberate",
    text: "D-33: `/edge/validate` needs no credential (Edge sends none; the answer tells only whether secrets the caller holds work); Unleash 8.2 refuses a client token",
  },
];

/** Response fields Unleash answers that Vexil does not, operation by operation. */
export const SHAPE_BY_OPERATION: Rule[] = [
  {
    path: /^\/api\/admin\/ui-config$/,
    kind: "spec",
    text: "spec 2.14 lists ui-config's fields (the `flags` map's content is not shown); the rest is Unleash's UI and Enterprise switches",
  },
  {
    path: /^\/api\/admin\/addons$/,
    kind: "deliberate",
    text: "D-20: the help texts, installation links and tag types of Unleash's integration catalogue are its UI's",
  },
  {
    path: /^\/api\/admin\/(projects\/\{projectId\}\/)?context(\/\{contextField\})?$/,
    kind: "deliberate",
    text: "D-23: context fields' usage counts (`usedInFeatures`, `usedInProjects`) are not reported",
  },
  {
    path: /^\/api\/admin\/environments/,
    kind: "deliberate",
    text: "D-20: per-environment token and flag counts, `visible` and `requiredApprovals` (Enterprise change requests; Vexil's are per project environment) are not reported",
  },
  {
    path: /^\/api\/admin\/(search\/)?events$/,
    kind: "spec",
    text: "spec 2.10: an event's `data` is each server's record of the change; token events never carry a secret, `alias` or `secure` (D-29)",
  },
  {
    path: /^\/api\/admin\/invite-link\/tokens(\/\{token\})?$/,
    when: (o) => shape(o) && o.onlyUnleash.every((k) => /(^|\.)secret$/.test(k)),
    kind: "security",
    text: "D-29: Vexil keeps only the hash of an invite link's secret, so only the creation answers `secret` and `url`; lists and reads answer `url: null` and the link's `id` (which the paths take too); Unleash stores and lists the secret",
  },
  {
    path: /^\/api\/client\/features/,
    kind: "deliberate",
    text: "D-20: no SDK reads a flag's `description` or the delta API's `meta`; the ETag is the response header",
  },
  {
    path: /^\/api\/admin\/projects\/\{projectId\}\/features\/\{featureName\}$/,
    kind: "deliberate",
    text: "D-20: collaborators are named by id only in `GET /users`; per-environment yes/no counts are in flag metrics (`/client-metrics/features/:name`)",
  },
  {
    path: /\/strategies$/,
    when: (o) =>
      o.onlyUnleash.every((k) => /milestoneId|parameters\.rollout|changeRequestStrategies/.test(k)),
    kind: "deliberate",
    text: "D-20: release-plan milestones are Enterprise; a strategy keeps the parameters it was given (Unleash adds a default `rollout`); strategies proposed in change requests are listed with the change requests",
  },
  {
    path: /^\/api\/admin\/personal-dashboard$/,
    kind: "spec",
    text: "spec 2.15: `projects` are those the caller belongs to in any role; the fixture's Editor and Viewer have no project role, so Vexil's list is empty (Unleash lists `default`)",
  },
  {
    path: /^\/api\/admin\/projects$/,
    kind: "deliberate",
    text: "D-30/D-20: onboarding status, owners, technical debt and last-usage are in `GET /projects/:p` and its overview, not in the list",
  },
  {
    path: /^\/api\/admin\/projects\/\{projectId\}\/api-tokens$/,
    kind: "security",
    text: "D-29/D-30: a project's tokens are those scoped to it by name (the fixture's serve `*`), and lists never show secrets, `alias` or `secure`",
  },
  {
    path: /^\/api\/admin\/projects\/\{projectId\}\/(dora|insights)$/,
    kind: "deliberate",
    text: "D-30: lead times are the project's own; no average over other projects is kept",
  },
  {
    path: /^\/api\/admin\/projects\/\{projectId\}\/flag-creators$/,
    kind: "deliberate",
    text: "D-20: the fixture's flags were created with the admin token, which is no user: Vexil lists no creator (Unleash its internal admin-token user)",
  },
  {
    path: /^\/api\/admin\/projects\/\{projectId\}\/(health-report|overview)$/,
    kind: "deliberate",
    text: "D-30: no history windows (`stats`) are kept; naming patterns and link templates are Enterprise project settings",
  },
  {
    path: /^\/api\/admin\/segments/,
    kind: "deliberate",
    text: "D-20: a segment's creator is in its `segment-created` event, not on the segment",
  },
  {
    path: /^\/api\/admin\/(user|user-admin(\/\{id\})?)$/,
    kind: "deliberate",
    text: "D-29/D-20: seats, SCIM, company roles, email consent, login attempts and sessions are Enterprise or UI fields; an admin token is no user (Unleash answers its token row)",
  },
];
