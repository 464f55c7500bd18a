/** Readable summaries of past flag states and of what changed between two instants. */

type Constraint = {
  contextName: string;
  operator: string;
  inverted: boolean;
  value?: string | null;
  values: string[];
};
export type StrategyLike = {
  name: string;
  title?: string | null;
  disabled: boolean;
  parameters: unknown;
  constraints: Constraint[];
  segments: number[];
};

/** `flexibleRollout "Beta" (rollout 50, groupId x) where userId IN a, b; segments 3` */
export function describeStrategy(strategy: StrategyLike): string {
  const parameters = Object.entries((strategy.parameters ?? {}) as Record<string, unknown>)
    .filter(([, value]) => value !== "" && value !== null)
    .map(([key, value]) => `${key} ${String(value)}`);
  const constraints = strategy.constraints.map(
    (c) => `${c.contextName} ${c.inverted ? "NOT " : ""}${c.operator} ${c.value ?? c.values.join(", ")}`,
  );
  return [
    strategy.name,
    strategy.title ? `“${strategy.title}”` : "",
    parameters.length > 0 ? `(${parameters.join(", ")})` : "",
    constraints.length > 0 ? `where ${constraints.join(" and ")}` : "",
    strategy.segments.length > 0 ? `segments ${strategy.segments.join(", ")}` : "",
    strategy.disabled ? "[disabled]" : "",
  ]
    .filter(Boolean)
    .join(" ");
}

/** A strategy as a diff carries it (the history's own shape: `id` is the strategy's UUID). */
type DiffStrategy = StrategyLike & { id: string };

export type StrategyChange = { kind: "added" | "removed" | "changed"; before?: string; after?: string };

/** Strategies added, removed or changed between two lists, matched by id. */
export function strategyChanges(before: unknown, after: unknown): StrategyChange[] {
  const old = new Map(asStrategies(before).map((s) => [s.id, s]));
  const now = new Map(asStrategies(after).map((s) => [s.id, s]));
  const changes: StrategyChange[] = [];
  for (const [id, strategy] of old)
    if (!now.has(id)) changes.push({ kind: "removed", before: describeStrategy(strategy) });
  for (const [id, strategy] of now) {
    const previous = old.get(id);
    if (!previous) changes.push({ kind: "added", after: describeStrategy(strategy) });
    else if (JSON.stringify(previous) !== JSON.stringify(strategy))
      changes.push({
        kind: "changed",
        before: describeStrategy(previous),
        after: describeStrategy(strategy),
      });
  }
  return changes;
}

function asStrategies(value: unknown): DiffStrategy[] {
  return Array.isArray(value)
    ? (value as DiffStrategy[]).map((s) => ({
        ...s,
        constraints: s.constraints ?? [],
        segments: s.segments ?? [],
      }))
    : [];
}

/** A field's value in a sentence: on/off, yes/no, lists joined, absent as "none". */
export function describeValue(field: string, value: unknown): string {
  if (field === "enabled") return value ? "enabled" : "disabled";
  if (field === "exists") return value ? "exists" : "does not exist";
  if (value === null || value === undefined) return "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string" || typeof value === "number") return String(value);
  if (Array.isArray(value))
    return value.length === 0
      ? "none"
      : value
          .map((item) => (typeof item === "object" && item ? describeObject(item) : String(item)))
          .join("; ");
  return JSON.stringify(value);
}

function describeObject(item: object): string {
  const record = item as Record<string, unknown>;
  if (typeof record.type === "string" && typeof record.value === "string")
    return `${record.type}: ${record.value}`;
  if (typeof record.feature === "string") return record.feature;
  if (typeof record.name === "string") return record.name;
  return JSON.stringify(item);
}
