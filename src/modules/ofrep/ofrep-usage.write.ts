import type { AppScope } from "../../context.ts";
import type { SdkCaller } from "../client-features/sdk-credential.write.ts";
import { receiveClientMetrics } from "../client-metrics/ingest.write.ts";
import type { OfrepSuccess } from "./ofrep-answer.logic.ts";

/** Headers an OFREP provider may be given (`headers` option) to name its application and instance. */
const APP_NAME_HEADER = "unleash-appname";
const INSTANCE_ID_HEADER = "unleash-instanceid";
/** OpenFeature's OFREP providers send no SDK name or version; this one says where the counts came from. */
const SDK_VERSION = "ofrep";

/**
 * Counts one OFREP flag evaluation as an SDK metrics report (D-34), through the same entry
 * point as `POST /api/client/metrics`, so last-seen, yes/no counts, lifecycle and applications
 * see OpenFeature clients too. The application is the `unleash-appname` header, else the token's
 * name; the instance `unleash-instanceid`, else `ofrep`. A metrics failure (a limit, a full
 * buffer, a write error) is logged, never the evaluation's answer.
 */
export async function countOfrepEvaluation(
  deps: AppScope,
  caller: SdkCaller,
  request: Request,
  answer: OfrepSuccess,
): Promise<void> {
  const { environment, projects } = caller.scope;
  const now = deps.now();
  const variant = answer.variant !== "on" && answer.variant !== "off" ? answer.variant : null;
  const yes = answer.metadata.enabled === true;
  const body = {
    appName: request.headers.get(APP_NAME_HEADER) || caller.principal.name,
    instanceId: request.headers.get(INSTANCE_ID_HEADER) || SDK_VERSION,
    sdkVersion: SDK_VERSION,
    bucket: {
      start: now.toISOString(),
      stop: now.toISOString(),
      toggles: {
        [answer.key]: {
          yes: yes ? 1 : 0,
          no: yes ? 0 : 1,
          ...(variant ? { variants: { [variant]: 1 } } : {}),
        },
      },
    },
  };
  const sdkType = caller.principal.kind === "frontend-token" ? "frontend" : "backend";
  try {
    await receiveClientMetrics(
      deps,
      { environment, projects: projects === "*" ? ["*"] : projects },
      body,
      sdkType,
    );
  } catch (error) {
    deps.logger.warn("OFREP evaluation not counted in SDK metrics", { error: String(error) });
  }
}
