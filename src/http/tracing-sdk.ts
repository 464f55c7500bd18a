import { context, propagation, trace } from "@opentelemetry/api";
import { VERSION } from "../version.ts";

/** The process's tracing, started when an OTLP endpoint is configured. */
export type Tracing = {
  /** Exports the spans still buffered; called at shutdown. */
  shutdown(): Promise<void>;
};

/**
 * Registers OpenTelemetry for the process: W3C trace context (`traceparent`) in and out, spans
 * batched to the OTLP/HTTP exporter (which reads the standard OTEL_EXPORTER_OTLP_* variables),
 * Prisma's own instrumentation for the database spans. Call once, before the database opens.
 * The SDK is imported here, not at the top: without tracing it would only add start-up time.
 */
export async function startTracing(): Promise<Tracing> {
  const [
    { AsyncLocalStorageContextManager },
    core,
    { OTLPTraceExporter },
    { resourceFromAttributes },
    sdk,
    prisma,
  ] = await Promise.all([
    import("@opentelemetry/context-async-hooks"),
    import("@opentelemetry/core"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace"),
    import("@prisma/instrumentation"),
  ]);
  const { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } = core;
  const { BatchSpanProcessor, TracerProvider } = sdk;
  const { PrismaInstrumentation, registerInstrumentations } = prisma;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      "service.name": process.env.OTEL_SERVICE_NAME || "vexil",
      "service.version": VERSION,
    }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
  });
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({ tracerProvider: provider, instrumentations: [new PrismaInstrumentation()] });
  return { shutdown: () => provider.shutdown() };
}
