/** unleash-client's metrics body for one bucket. */
export function sdkBucket(
  appName: string,
  instanceId: string,
  toggles: Record<string, { yes: number; no: number; variants?: Record<string, number> }>,
  start = new Date(),
) {
  return {
    appName,
    instanceId,
    connectionId: `${instanceId}-connection`,
    bucket: { start: start.toISOString(), stop: new Date(start.getTime() + 60_000).toISOString(), toggles },
    platformName: "node",
    platformVersion: "20.20.0",
    yggdrasilVersion: null,
    specVersion: "5.2.2",
  };
}
