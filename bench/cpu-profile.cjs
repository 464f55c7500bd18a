// A CPU profile of a whole server process, written when it exits, for Node 20, which refuses
// --cpu-prof in NODE_OPTIONS: BENCH_SERVER_NODE_OPTIONS="--require ./bench/cpu-profile.cjs"
// (CPU_PROF_DIR: where to write it; default the working directory). Open it in Chrome's DevTools.
const fs = require("node:fs");
const inspector = require("node:inspector");
const path = require("node:path");

const session = new inspector.Session();
session.connect();
session.post("Profiler.enable");
session.post("Profiler.start");
process.on("exit", () => {
  // The in-process session answers synchronously, so the file is written before the exit.
  session.post("Profiler.stop", (error, result) => {
    if (error) return;
    const dir = process.env.CPU_PROF_DIR ?? process.cwd();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, `CPU.${Date.now()}.${process.pid}.cpuprofile`),
      JSON.stringify(result.profile),
    );
  });
});
