// `npm run check:imports`, second run, over the imports of src/modules/ that exist at run time:
// - no import cycles between modules (docs/architecture.md, The map): src/modules/A imports
//   src/modules/B through any of its files and B imports A, through any files: a cycle between
//   the folders even when no file imports itself back;
// - a .read.ts reaches no write through any chain of imports (a .cache.ts it asks included).
// Notes:
// - dependency-cruiser checks cycles between folders with a rule of scope "folder" (`--collapse`
//   only reshapes the report: its rules still see files). Folder rules take no dependencyTypes,
//   so this run reads the imports as compiled (tsPreCompilationDeps: false): type-only imports
//   are gone, as in the layer rules of .dependency-cruiser.cjs.
// - Only src/modules/ is cruised: the folders above it aggregate every file below them (src/
//   holds src/modules/ and imports rest/, which imports src/) and would close false cycles.
module.exports = {
  forbidden: [
    {
      name: "no-module-cycles",
      severity: "error",
      comment:
        "Two modules import each other (at run time, through any files): move the code to the module that owns it (docs/architecture.md, The map)",
      scope: "folder",
      from: { path: "^src/modules/[^/]+$" },
      to: { path: "^src/modules/[^/]+$", circular: true },
    },
    {
      name: "reads-reach-no-write",
      severity: "error",
      comment:
        "A .read.ts never writes, not even through a .cache.ts or a helper: a function that reads and writes is in a .write.ts (docs/architecture.md, Naming)",
      from: { path: "\\.read\\.ts$" },
      to: { path: "\\.(write|plugin|job|live|schema|endpoints)\\.ts$", reachable: true },
    },
  ],
  options: {
    includeOnly: { path: "^src/modules/" },
    exclude: { path: "^src/generated/" },
    metrics: true,
    tsPreCompilationDeps: false,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
