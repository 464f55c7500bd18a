import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";

let initialised: Promise<void> | undefined;

/**
 * Instantiates the WASM schema engine once per process. Node 20 cannot import the package's
 * `.wasm` entry as an ES module, so the module is compiled by hand (see docs/decisions.md D-08).
 */
function initWasm(): Promise<void> {
  initialised ??= (async () => {
    const require = createRequire(import.meta.url);
    const glue = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const wasmPath = join(dirname(glue), "schema_engine_bg.wasm");
    const bytes = await readFile(wasmPath);
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {
      "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports,
    });
    const exports = instance.exports as WebAssembly.Exports & {
      __wbindgen_start: () => void;
    };
    (bg as unknown as { __wbg_set_wasm: (e: unknown) => void }).__wbg_set_wasm(exports);
    exports.__wbindgen_start();
  })();
  return initialised;
}

/**
 * Runs `work` with a schema engine over a migration-aware driver adapter and the given Prisma
 * schema, then frees the engine and disposes every connection it opened: `free()` alone leaves
 * them open, and one still holding Prisma's advisory lock stalls the next migration by 10 s.
 */
export async function withSchemaEngine<T>(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  schema: { path: string; content: string },
  work: (engine: bg.SchemaEngine) => Promise<T>,
  log: (message: string) => void = () => {},
): Promise<T> {
  await initWasm();
  const opened: SqlDriverAdapter[] = [];
  const track = async (adapter: Promise<SqlDriverAdapter>) => {
    const a = await adapter;
    opened.push(a);
    return a;
  };
  const tracking: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapterFactory.provider,
    adapterName: adapterFactory.adapterName,
    connect: () => track(adapterFactory.connect()),
    connectToShadowDb: () => track(adapterFactory.connectToShadowDb()),
  };
  const bound = bindMigrationAwareSqlAdapterFactory(tracking);
  const engine = await bg.SchemaEngine.new(
    { datamodels: [[schema.path, schema.content]] },
    (line: string) => log(line),
    bound,
  );
  try {
    return await work(engine);
  } catch (error) {
    throw withDriverError(error, bound.errorRegistry);
  } finally {
    engine.free();
    await Promise.all(opened.map((a) => a.dispose()));
  }
}

/**
 * The engine reports driver failures as "External error id#N"; the database's own message
 * (e.g. `relation "x" does not exist`) waits in the adapter's error registry. Put it back.
 */
function withDriverError(
  error: unknown,
  registry: { consumeError(id: number): { error: unknown } | undefined },
) {
  const message = error instanceof Error ? error.message : String(error);
  const id = /External error id#(\d+)/.exec(message)?.[1];
  const cause = id ? registry.consumeError(Number(id))?.error : undefined;
  if (!cause) return error;
  const detail = cause instanceof Error ? cause.message : JSON.stringify(cause);
  const migration = /migration_name="([^"]+)"/.exec(message)?.[1];
  return new Error(`${migration ? `migration ${migration}: ` : ""}${detail}`, { cause: error });
}
