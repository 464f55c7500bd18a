// `npm run check:imports`: import rules that keep the layering of docs/architecture.md
// (shared ← db ← events ← modules ← rest / jobs) and no runtime import cycles.
/** A layer may not import (at run time) from the layers above it. */
const layer = (name, from, above) => ({
  name,
  severity: "error",
  comment: `${from} is below ${above.join(", ")}`,
  from: { path: `^${from}` },
  to: { path: above.map((p) => `^${p}`), dependencyTypesNot: ["type-only"] },
});

module.exports = {
  forbidden: [
    {
      name: "no-runtime-cycles",
      severity: "error",
      comment: "Modules must load in one order; type-only imports may refer back.",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    layer("shared-is-the-base", "src/shared/", [
      "src/db/",
      "src/events/",
      "src/modules/",
      "src/jobs/",
      "rest/",
    ]),
    layer("db-below-events", "src/db/", ["src/events/", "src/modules/", "src/jobs/", "rest/"]),
    layer("events-below-modules", "src/events/", ["src/modules/", "src/jobs/", "rest/"]),
    layer("modules-below-rest-and-jobs", "src/modules/", ["src/jobs/", "rest/"]),
    {
      name: "events-know-no-module",
      severity: "error",
      comment:
        "src/events knows no module, not even its types: modules register what every event needs (src/events/hooks.ts, docs/architecture.md)",
      from: { path: "^src/events/" },
      to: { path: ["^src/modules/", "^src/jobs/", "^rest/", "^src/[^/]+\\.ts$"] },
    },
    {
      name: "module-files-are-named-by-role",
      severity: "error",
      comment: "src/modules/<module>/<topic>.<role>.ts: the roles of docs/architecture.md (Naming)",
      from: {
        path: "^src/modules/",
        pathNot: "\\.(schema|write|read|inputs|types|logic|plugin|live|cache|job|endpoints)\\.ts$",
      },
      to: {},
    },
    {
      name: "only-schema-files-import-schema-files",
      severity: "error",
      comment:
        "A .schema.ts registers GraphQL types; other roles must not depend on that (docs/architecture.md, Naming)",
      from: { path: "^src/modules/", pathNot: "\\.schema\\.ts$" },
      to: { path: "^src/modules/.*\\.schema\\.ts$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "logic-inputs-and-types-stay-pure",
      severity: "error",
      comment:
        "A .logic/.inputs/.types file never reaches a write, plugin, cache, job, live, schema or endpoints file (docs/architecture.md, Naming)",
      from: { path: "\\.(logic|inputs|types)\\.ts$" },
      to: {
        path: "\\.(write|plugin|cache|job|live|schema|endpoints)\\.ts$",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "reads-do-not-write",
      severity: "error",
      comment:
        "A .read.ts never reaches a write, plugin, job, live, schema or endpoints file; it may ask a .cache.ts, since a node's memory cache is a faster read of the same data (docs/architecture.md, Naming)",
      from: { path: "\\.read\\.ts$" },
      to: { path: "\\.(write|plugin|job|live|schema|endpoints)\\.ts$", dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/generated/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
