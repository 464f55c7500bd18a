import { MemoryFS } from "@electric-sql/pglite";

/** One entry of a PGlite data dir tarball: a path under the data dir ("/base/5/1255"). */
type Entry = { path: string; dir: boolean; data: Uint8Array; mtime: number };

/**
 * The entries of a tarball made by PGlite's `dumpDataDir("none")` (ustar: 512-byte headers, names
 * in the 100-byte name field, which PGlite always uses: its own names are short).
 */
export function parseDataDirTarball(bytes: Uint8Array): Entry[] {
  const entries: Entry[] = [];
  const text = (at: number, length: number) => {
    const field = bytes.subarray(at, at + length);
    const end = field.indexOf(0);
    return Buffer.from(field.subarray(0, end < 0 ? length : end)).toString("utf8");
  };
  let at = 0;
  while (at + 512 <= bytes.length && bytes[at] !== 0) {
    const path = text(at, 100);
    if (path.length >= 100) throw new Error(`unexpected long name in the PGlite template: ${path}`);
    const size = Number.parseInt(text(at + 124, 12).trim() || "0", 8);
    const mtime = Number.parseInt(text(at + 136, 12).trim() || "0", 8);
    const type = String.fromCharCode(bytes[at + 156] ?? 0);
    if (type !== "0" && type !== "\0" && type !== "5") throw new Error(`unexpected tar entry type ${type}`);
    entries.push({ path, dir: type === "5", data: bytes.subarray(at + 512, at + 512 + size), mtime });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

/**
 * An in-memory PGlite filesystem that starts with a data dir already in place, written from
 * entries parsed once (`parseDataDirTarball`). It does what `loadDataDir` does (every file
 * copied, with its modification time), without its per-file costs: the tarball parsed again,
 * and every parent folder of every file looked up in the virtual filesystem.
 */
export class TemplateMemoryFS extends MemoryFS {
  constructor(private readonly entries: Entry[]) {
    super();
  }

  override async initialSyncFs(): Promise<void> {
    await super.initialSyncFs();
    const mod = this.pg!.Module as unknown as { FS: EmscriptenFS; ENV: Record<string, string> };
    const { FS } = mod;
    const root = mod.ENV.PGDATA;
    if (!root) throw new Error("PGlite did not set PGDATA");
    const made = new Set<string>();
    const ensureDir = (dir: string) => {
      if (made.has(dir)) return;
      const parent = dir.slice(0, dir.lastIndexOf("/"));
      if (parent) ensureDir(parent);
      if (!FS.analyzePath(dir).exists) FS.mkdir(dir);
      made.add(dir);
    };
    for (const entry of this.entries) {
      const path = root + entry.path;
      if (entry.dir) {
        ensureDir(path);
        continue;
      }
      ensureDir(path.slice(0, path.lastIndexOf("/")));
      FS.writeFile(path, entry.data);
      FS.utime(path, entry.mtime, entry.mtime);
    }
  }
}

type EmscriptenFS = {
  analyzePath(path: string): { exists: boolean };
  mkdir(path: string): void;
  writeFile(path: string, data: Uint8Array): void;
  utime(path: string, atime: number, mtime: number): void;
};
