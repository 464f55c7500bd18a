// `npm run check:imports`, second run: no import cycles between modules (docs/architecture.md,
// The map). src/modules/A imports src/modules/B through any of its files and B imports A, through
// any files: a cycle between the folders even when no file imports itself back.
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
  ],
  options: {
    includeOnly: { path: "^src/modules/" },
    exclude: { path: "^src/generated/" },
    metrics: true,
    tsPreCompilationDeps: false,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
