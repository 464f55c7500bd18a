/**
 * What one proposed change does, as a before → after comparison of plain values. The "before"
 * is the flag's state now while the request is open, and just before it once it was applied.
 */

import { Table } from "../../components/table.tsx";

type Json = unknown;
type Strategy = {
  databaseId: string;
  name: string;
  title: string | null;
  disabled: boolean;
  sortOrder: number;
  parameters: Json;
  constraints: Json[];
  segments: number[];
  variants: Json[];
};
export type FlagEnvironmentState = {
  enabled: boolean;
  strategies: Strategy[];
  variants: Json[];
};
export type FlagState = {
  archived: boolean;
  dependencies: { feature: string; enabled: boolean; variants: string[] }[];
  environment: FlagEnvironmentState | null;
};

export type ChangeDescription = { summary: string; before: Json; after: Json };

type Payload = Record<string, Json>;

function strategyView(strategy: Strategy | undefined): Json {
  if (!strategy) return null;
  return {
    name: strategy.name,
    title: strategy.title,
    disabled: strategy.disabled,
    parameters: strategy.parameters,
    constraints: strategy.constraints,
    segments: strategy.segments,
    variants: strategy.variants,
  };
}

function withoutId(payload: Payload): Payload {
  const { id: _id, ...rest } = payload;
  return rest;
}

/** Reads a proposed flag change against the flag's current state. */
export function describeFlagChange(action: string, payload: Json, flag: FlagState | null): ChangeDescription {
  const p = (payload && typeof payload === "object" ? payload : {}) as Payload;
  const env = flag?.environment ?? null;
  const strategyById = (id: Json) => env?.strategies.find((s) => s.databaseId === id);
  switch (action) {
    case "updateEnabled":
      return {
        summary: p.enabled ? "Turn the flag on" : "Turn the flag off",
        before: env ? { enabled: env.enabled } : null,
        after: {
          enabled: p.enabled,
          ...(p.shouldActivateDisabledStrategies ? { activateDisabledStrategies: true } : {}),
        },
      };
    case "addStrategy":
      return { summary: `Add strategy ${String(p.name ?? "")}`, before: null, after: withoutId(p) };
    case "updateStrategy": {
      const current = strategyById(p.id);
      const before = strategyView(current);
      return {
        summary: `Change strategy ${String(p.name ?? current?.name ?? p.id)}`,
        before,
        after: { ...((before as Payload | null) ?? {}), ...withoutId(p) },
      };
    }
    case "deleteStrategy": {
      const current = strategyById(p.id);
      return {
        summary: `Delete strategy ${current?.name ?? String(p.id)}`,
        before: strategyView(current) ?? { id: p.id },
        after: null,
      };
    }
    case "reorderStrategy": {
      const order = Array.isArray(payload) ? (payload as { id: string; sortOrder: number }[]) : [];
      const name = (id: string) => strategyById(id)?.name ?? id;
      return {
        summary: "Reorder strategies",
        before: env ? [...env.strategies].sort((a, b) => a.sortOrder - b.sortOrder).map((s) => s.name) : null,
        after: [...order].sort((a, b) => a.sortOrder - b.sortOrder).map((o) => name(o.id)),
      };
    }
    case "patchVariant":
      return { summary: "Replace the variants", before: env ? { variants: env.variants } : null, after: p };
    case "archiveFeature":
      return {
        summary: "Archive the flag",
        before: flag ? { archived: flag.archived } : null,
        after: { archived: true },
      };
    case "addDependency":
      return {
        summary: `Depend on ${String(p.feature ?? "")}`,
        before: flag ? { dependencies: flag.dependencies } : null,
        after: { dependencies: [...(flag?.dependencies ?? []).filter((d) => d.feature !== p.feature), p] },
      };
    case "deleteDependency":
      return {
        summary: "Remove the dependencies",
        before: flag ? { dependencies: flag.dependencies } : null,
        after: { dependencies: [] },
      };
    default:
      return { summary: action, before: null, after: payload };
  }
}

export function describeSegmentChange(action: string, payload: Json, name: string | null): ChangeDescription {
  const label = name ?? String((payload as Payload | null)?.id ?? "");
  if (action === "deleteSegment")
    return { summary: `Delete segment ${label}`, before: { segment: label }, after: null };
  return { summary: `Change segment ${label}`, before: null, after: payload };
}

/** `{a: {b: 1}, c: [x]}` → `[["a.b", "1"], ["c", "[x]"]]`: one row per leaf, arrays kept whole. */
function flatten(value: Json, prefix = ""): [string, string][] {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value as Payload);
    if (entries.length === 0) return prefix ? [[prefix, "{}"]] : [];
    return entries.flatMap(([key, inner]) => flatten(inner, prefix ? `${prefix}.${key}` : key));
  }
  if (value === undefined) return [];
  return [[prefix || "value", typeof value === "string" ? value : JSON.stringify(value)]];
}

export function DiffTable(props: { before: Json; after: Json; caption: string }) {
  const before = new Map(flatten(props.before));
  const after = new Map(flatten(props.after));
  const paths = [...new Set([...before.keys(), ...after.keys()])];
  if (paths.length === 0) return <p className="muted">No data.</p>;
  return (
    <Table
      columns={["Field", "Before", "After"]}
      className="diff"
      caption={<caption className="visually-hidden">{props.caption}: before and after</caption>}
    >
      {paths.map((path) => {
        const old = before.get(path);
        const next = after.get(path);
        const changed = old !== next;
        return (
          <tr key={path} className={changed ? "changed" : undefined}>
            <th scope="row">{path}</th>
            <td className={changed && old !== undefined ? "removed" : undefined}>{old ?? "—"}</td>
            <td className={changed && next !== undefined ? "added" : undefined}>{next ?? "—"}</td>
          </tr>
        );
      })}
    </Table>
  );
}
