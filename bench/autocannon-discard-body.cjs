// An autocannon `setupClient` (a file path: autocannon loads it in its worker) that makes the
// client count a response's bytes without keeping them. autocannon 9 appends every body chunk
// to a string (`req.body += chunk`, PipelinedRequestsQueue.addBody) for `expectBody`/`verifyBody`,
// which the benchmarks never use: decoding a 5 MB client-features document, or 340 kB of gzip,
// to a string on every response took ~80 % of the load generator's thread, so the bench measured
// autocannon rather than the server (a bare Node server sending 6 MB bodies: 42 req/s with it, 80
// without; 140 kB gzipped: 420 req/s with it, 7,600 without). Byte counts, statuses and latencies
// are kept. Fails loudly if a later autocannon no longer has the method.
module.exports = function discardBodies(client) {
  const queue = client.pipelinedRequests;
  if (!queue || typeof queue.addBody !== "function") {
    throw new Error("autocannon-discard-body.cjs: autocannon's client has no pipelinedRequests.addBody");
  }
  queue.addBody = () => {};
};
