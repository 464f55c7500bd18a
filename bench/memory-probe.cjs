// The memory of a benchmark's server process on demand, for Node 20 (which refuses --expose-gc
// in NODE_OPTIONS): NODE_OPTIONS="--require ./bench/memory-probe.cjs". On SIGUSR2 the process
// runs two full garbage collections (the first frees the heap's pages to V8, the second gives
// them back to the system, as src/jobs/idle-memory.ts does), then prints one line
// `[memory-probe] {"rss":…,"heapUsed":…,"external":…,"arrayBuffers":…}` (bytes) on stdout, so a
// benchmark measures what live objects hold, not garbage that no collection has met yet.
// With HEAP_SNAPSHOT_DIR set, each probe also writes a heap snapshot there (open two in Chrome's
// DevTools, Memory panel, "Comparison", to see what the objects made between them are).
const v8 = require("node:v8");
const vm = require("node:vm");

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");

process.on("SIGUSR2", () => {
  gc();
  gc();
  if (process.env.HEAP_SNAPSHOT_DIR) {
    require("node:fs").mkdirSync(process.env.HEAP_SNAPSHOT_DIR, { recursive: true });
    v8.writeHeapSnapshot(
      require("node:path").join(process.env.HEAP_SNAPSHOT_DIR, `${Date.now()}.${process.pid}.heapsnapshot`),
    );
  }
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  process.stdout.write(
    `[memory-probe] ${JSON.stringify({ rss, heapUsed, heapTotal, external, arrayBuffers })}\n`,
  );
});
