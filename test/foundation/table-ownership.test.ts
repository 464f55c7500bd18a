import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { EXTRA_READERS, EXTRA_WRITERS, TABLE_OWNERS } from "../../src/db/table-owners.ts";
import { READS_TO_MOVE } from "./reads-to-move.ts";

// Static check of src/db/table-owners.ts: every write to a table (a Prisma create/update/
// upsert/delete call or raw INSERT/UPDATE/DELETE SQL) sits under the table's owner or is
// listed in EXTRA_WRITERS. Nested Prisma writes (`{ create: ... }` inside `data`) are not
// seen; the ones in the code write tables of the same owner as their parent row. Below the
// modules, src/events names no table but its own, in reads as well as writes.
// Reads too (a Prisma find/count/aggregate/groupBy call, or a table after FROM or JOIN in SQL)
// sit under the owner, or are listed: EXTRA_READERS with the reason they stay, READS_TO_MOVE
// (reads/to-move counts per file, issue 38) until they move into the owner's .read.ts. Nested
// Prisma reads (`include`, `select` of a relation) are not seen.

const ROOT = join(import.meta.dirname, "../..");
const SCANNED = ["src", "rest"];
const GENERATED = "src/generated/";
const PRISMA_WRITES =
  "create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany";

const PRISMA_READS =
  "findMany|findFirst|findFirstOrThrow|findUnique|findUniqueOrThrow|count|aggregate|groupBy";

type Write = { file: string; line: number; table: string };
type Read = Write;

/** Model names of the schema, with their @@map table name when they have one. */
function schemaTables(): Map<string, string> {
  const schema = readFileSync(join(ROOT, "prisma/schema.prisma"), "utf8");
  const tables = new Map<string, string>();
  for (const [, model, body] of schema.matchAll(/^model (\w+) \{([^}]*)\}/gm)) {
    tables.set(model as string, /@@map\("(\w+)"\)/.exec(body as string)?.[1] ?? (model as string));
  }
  return tables;
}

/** The writes in one file's text. */
function writesIn(file: string, text: string, tables: Map<string, string>): Write[] {
  const byAccessor = new Map([...tables.keys()].map((m) => [m[0]?.toLowerCase() + m.slice(1), m]));
  const bySqlName = new Map([...tables].map(([model, sqlName]) => [sqlName, model]));
  const found: Write[] = [];
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  const prisma = new RegExp(`\\.(\\w+)\\s*\\.\\s*(?:${PRISMA_WRITES})\\s*\\(`, "g");
  for (const m of text.matchAll(prisma)) {
    const table = byAccessor.get(m[1] as string);
    if (table) found.push({ file, line: lineOf(m.index), table });
  }
  const sql = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)"?/gi;
  for (const m of text.matchAll(sql)) {
    const table = bySqlName.get(m[1] as string);
    if (table) found.push({ file, line: lineOf(m.index), table });
  }
  return found;
}

/** Whether the match at `index` is on a comment line (an example in a doc comment is no read). */
function inComment(text: string, index: number): boolean {
  const line = text.slice(text.lastIndexOf("\n", index) + 1, index).trimStart();
  return line.startsWith("*") || line.startsWith("//") || line.startsWith("/*");
}

/**
 * The reads in one file's text: Prisma read calls, and tables after FROM or JOIN in SQL (quoted,
 * or an all-lower-case name as PostgreSQL folds unquoted ones), not DELETE's FROM.
 */
function readsIn(file: string, text: string, tables: Map<string, string>): Read[] {
  const byAccessor = new Map([...tables.keys()].map((m) => [m[0]?.toLowerCase() + m.slice(1), m]));
  const bySqlName = new Map([...tables].map(([model, sqlName]) => [sqlName, model]));
  const found: Read[] = [];
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  const prisma = new RegExp(`\\.(\\w+)\\s*\\.\\s*(?:${PRISMA_READS})\\s*\\(`, "g");
  for (const m of text.matchAll(prisma)) {
    const table = byAccessor.get(m[1] as string);
    if (table && !inComment(text, m.index)) found.push({ file, line: lineOf(m.index), table });
  }
  const sql = /(?<!\bDELETE\s+)\b(?:FROM|JOIN)\s+(?:"(\w+)"|([a-z_]+)\b)/gi;
  for (const m of text.matchAll(sql)) {
    const table = bySqlName.get((m[1] ?? m[2]) as string);
    if (table && !inComment(text, m.index)) found.push({ file, line: lineOf(m.index), table });
  }
  return found;
}

/**
 * The tables one file's text names: in SQL, quoted or (an all-lower-case name, as PostgreSQL
 * folds unquoted ones) after a keyword, or as a Prisma model.
 */
function tablesNamedIn(text: string, tables: Map<string, string>): Set<string> {
  const unquoted = new Set([...text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+(\w+)/gi)].map((m) => m[1]));
  const named = new Set<string>();
  for (const [model, sqlName] of tables) {
    const accessor = model[0]?.toLowerCase() + model.slice(1);
    if (
      text.includes(`"${sqlName}"`) ||
      unquoted.has(sqlName) ||
      new RegExp(`\\.${accessor}\\s*\\.\\s*\\w+\\s*\\(`).test(text)
    )
      named.add(model);
  }
  return named;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return path.startsWith(GENERATED.slice(0, -1)) ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const tables = schemaTables();
const writes = SCANNED.flatMap(sourceFiles).flatMap((file) =>
  writesIn(relative(ROOT, join(ROOT, file)), readFileSync(join(ROOT, file), "utf8"), tables),
);
const owners: Record<string, string> = TABLE_OWNERS;
const reads = SCANNED.flatMap(sourceFiles).flatMap((file) =>
  readsIn(relative(ROOT, join(ROOT, file)), readFileSync(join(ROOT, file), "utf8"), tables),
);
const readsOutside = reads.filter(
  (r) =>
    !r.file.startsWith(owners[r.table] as string) &&
    !EXTRA_READERS.some(
      (x) => x.files.some((f) => r.file.startsWith(f)) && (x.tables as readonly string[]).includes(r.table),
    ),
);
/** Per file, per table: how many reads outside the owner it holds. */
function countsOf(list: Read[]): Record<string, Record<string, number>> {
  const counts: Record<string, Record<string, number>> = {};
  for (const r of list) {
    const ofFile = counts[r.file] ?? {};
    ofFile[r.table] = (ofFile[r.table] ?? 0) + 1;
    counts[r.file] = ofFile;
  }
  return counts;
}

function allowed(write: Write): boolean {
  if (write.file.startsWith(owners[write.table] as string)) return true;
  return EXTRA_WRITERS.some(
    (x) => x.file === write.file && (x.tables as readonly string[]).includes(write.table),
  );
}

describe("each table has one owning module that writes it (src/db/table-owners.ts)", () => {
  it("names an owner for every model of the schema, and only for those", () => {
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual([...tables.keys()].sort());
  });

  it("finds no write outside a table's owner but the listed extra writers", () => {
    const outside = writes.filter((w) => !allowed(w)).map((w) => `${w.file}:${w.line} writes ${w.table}`);
    expect(outside).toEqual([]);
  });

  it("lists no extra writer that no longer writes the table", () => {
    const unused = EXTRA_WRITERS.flatMap((x) =>
      x.tables
        .filter((table) => !writes.some((w) => w.file === x.file && w.table === table))
        .map((table) => `${x.file} ${table}`),
    );
    expect(unused).toEqual([]);
  });

  it("finds src/events naming only the tables it owns (modules register what events need)", () => {
    const foreign = sourceFiles("src/events").flatMap((file) =>
      [...tablesNamedIn(readFileSync(join(ROOT, file), "utf8"), tables)]
        .filter((table) => owners[table] !== "src/events/")
        .map((table) => `${file} names ${table}`),
    );
    expect(foreign).toEqual([]);
    expect(Object.keys(owners).filter((table) => owners[table] === "src/events/")).toEqual(["Event"]);
  });

  it("sees a table named in SQL, quoted or not, and as a Prisma model", () => {
    const named = (text: string) => [...tablesNamedIn(text, tables)];
    expect(named('SELECT 1 FROM "FeatureTag" t')).toEqual(["FeatureTag"]);
    expect(named("INSERT INTO rate_limit (key) VALUES (1)")).toEqual(["RateLimit"]);
    expect(named("await tx.addonDelivery.findMany({})")).toEqual(["AddonDelivery"]);
    expect(named("the flag's tags, an addon's deliveries")).toEqual([]);
  });

  it("finds no read outside a table's owner but the listed ones (reads to move: exactly as many as listed)", () => {
    const sorted = (counts: Record<string, Record<string, number>>) =>
      Object.fromEntries(
        Object.entries(counts)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([file, byTable]) => [file, Object.fromEntries(Object.entries(byTable).sort())]),
      );
    // A new read of another module's table fails here: read it through the owner's .read.ts.
    // One moved away fails too: lower (or drop) its count, so the list only shrinks.
    expect(sorted(countsOf(readsOutside))).toEqual(sorted(READS_TO_MOVE));
  });

  it("lists no extra reader that no longer reads the table", () => {
    const unused = EXTRA_READERS.flatMap((x) =>
      x.files.flatMap((file) =>
        x.tables
          .filter((table) => !reads.some((r) => r.file.startsWith(file) && r.table === table))
          .map((table) => `${file} ${table}`),
      ),
    );
    expect(unused).toEqual([]);
  });

  it("sees Prisma reads and SQL reads, and no write or comment", () => {
    const sample = [
      "await ctx.db.feature.findMany({ where: {} });",
      "const n = await tx.segment.count();",
      'await sqlOf(tx).query`SELECT 1 FROM "Feature" f JOIN "FeatureTag" t ON true`;',
      "await sqlOf(tx).query`SELECT key FROM rate_limit`;",
      'await tx.$executeRaw`DELETE FROM "Tag" WHERE true`;',
      ' * sqlOf(tx).query`SELECT name FROM "Project"` (an example)',
      "await tx.feature.update({ where: {} });",
    ].join("\n");
    expect(readsIn("x.ts", sample, tables).map((r) => `${r.line} ${r.table}`)).toEqual([
      "1 Feature",
      "2 Segment",
      "3 Feature",
      "3 FeatureTag",
      "4 RateLimit",
    ]);
    expect(reads.length).toBeGreaterThan(100);
  });

  it("sees Prisma writes and raw write SQL, and nothing in reads or locks", () => {
    const sample = [
      "await w.tx.featureEnvironment.updateMany({ where: {} });",
      'await tx.$executeRaw`UPDATE "FeatureEnvironment" SET enabled = true`;',
      'await tx.$executeRaw`INSERT INTO "Tag" (type, value) VALUES (1, 2) ON CONFLICT DO UPDATE SET value = 2`;',
      'await tx.$queryRaw`DELETE FROM "rate_limit" WHERE true`;',
      'await tx.$queryRaw`SELECT * FROM "Feature" WHERE name = 1 FOR UPDATE`;',
      "await tx.feature.findMany({ where: { name: 'x' } });",
      'await lockRow(tx, "User", 1);',
    ].join("\n");
    expect(writesIn("x.ts", sample, tables).map((w) => `${w.line} ${w.table}`)).toEqual([
      "1 FeatureEnvironment",
      "2 FeatureEnvironment",
      "3 Tag",
      "4 RateLimit",
    ]);
    // The scan of the tree is not empty: the toggle's raw UPDATE is one of its findings.
    expect(writes).toContainEqual(
      expect.objectContaining({
        file: "src/modules/feature-environments/enabled-state.write.ts",
        table: "FeatureEnvironment",
      }),
    );
  });
});
