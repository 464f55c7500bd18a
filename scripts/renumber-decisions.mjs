// One-off: rewrites citations of the former decision records (D-001 … D-195) to the records that
// now hold them (D-01 … D-39), reading the mapping from the "Former record numbers" table at the
// end of docs/decisions.md. Usage: node renumber-decisions.mjs <file>...   (rewrites in place)
import { readFileSync, writeFileSync } from "node:fs";

const decisions = readFileSync("docs/decisions.md", "utf8");
const table = decisions.slice(decisions.indexOf("# Former record numbers"));
const oldToNew = new Map();
for (const line of table.split("\n")) {
  const cells = line.split("|").map((c) => c.trim());
  for (let i = 1; i + 1 < cells.length; i += 2) {
    const range = /^D-(\d{3})(?: to D-(\d{3}))?$/.exec(cells[i]);
    const now = /^D-\d{2}$/.exec(cells[i + 1]);
    if (!range || !now) continue;
    const from = Number(range[1]);
    const to = Number(range[2] ?? range[1]);
    for (let n = from; n <= to; n++) oldToNew.set(n, now[0]);
  }
}
if (oldToNew.size < 170) throw new Error(`only ${oldToNew.size} former numbers found`);

const cite = (n) => {
  const now = oldToNew.get(Number(n));
  if (!now) throw new Error(`D-${n} is not in the table`);
  return now;
};
const collapse = (text) =>
  // "D-27 and D-27", "D-26, D-26", "D-27/D-27" after mapping: one citation.
  text.replace(/\b(D-\d{2})((?:\s*(?:\/|,|and)\s*)\1\b)+/g, "$1");

for (const file of process.argv.slice(2)) {
  const before = readFileSync(file, "utf8");
  let after = before
    // A range of former records ("D-155 to D-157") becomes the list of records now holding them.
    .replace(/\bD-(\d{3}) to D-(\d{3})\b/g, (_m, a, b) => {
      const held = [];
      for (let n = Number(a); n <= Number(b); n++) {
        const now = oldToNew.get(n);
        if (now && !held.includes(now)) held.push(now);
      }
      return held.length > 1 ? `${held.slice(0, -1).join(", ")} and ${held.at(-1)}` : held[0];
    })
    .replace(/\bD-(\d{3})\b/g, (_m, n) => cite(n));
  after = collapse(after);
  if (after !== before) {
    writeFileSync(file, after);
    console.log(`rewrote ${file}`);
  }
}
