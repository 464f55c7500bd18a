import { type FormEvent, useState } from "react";
import { useMutation } from "urql";
import { sharedWeights } from "../../../../src/modules/feature-environments/variant-weights.logic.ts";
import { BUILT_IN_CONTEXT_FIELDS } from "../../components/ConstraintsEditor.tsx";
import { Field, SelectField } from "../../components/form.tsx";
import { fieldProblem, type PathProblem, pathProblemOf } from "../../lib/path-problems.ts";
import { useSession } from "../../lib/session.tsx";
import { type ChangeOutcome, useEnvironmentChange, useFlag } from "./context.ts";
import type { FlagEnvironment, PayloadType } from "./EnvironmentSection.tsx";
import { SetEnvironmentVariants } from "./queries.ts";

export type VariantValue = {
  name: string;
  weight: number;
  weightType: "fix" | "variable";
  stickiness: string;
  payload: { type: PayloadType; value: string } | null;
  overrides?: { contextName: string; values: string[] }[];
};

const PAYLOAD_TYPES: PayloadType[] = ["string", "json", "csv", "number"];

function variantsOf(environment: FlagEnvironment): VariantValue[] {
  return environment.variants.map((v) => ({
    name: v.name,
    weight: v.weight,
    weightType: v.weightType === "fix" ? "fix" : "variable",
    stickiness: v.stickiness ?? "default",
    payload: v.payload ? { type: v.payload.type as PayloadType, value: v.payload.value } : null,
    overrides: v.overrides.map((o) => ({ contextName: o.contextName, values: o.values })),
  }));
}

/** The flag's variants in one environment (spec 2.5), saved together (weights share 1000). */
export function VariantsEditor(props: {
  environment: FlagEnvironment;
  needsReview: boolean;
  onOutcome(outcome: ChangeOutcome): void;
}) {
  const { environment } = props;
  const { project, name } = useFlag();
  const [variants, setVariants] = useState<VariantValue[] | null>(null);
  const [problem, setProblem] = useState<PathProblem | null>(null);
  const [, save] = useMutation(SetEnvironmentVariants);
  const run = useEnvironmentChange(environment.name, props.needsReview);
  const mayEdit = useSession().can("UPDATE_FEATURE_ENVIRONMENT_VARIANTS", project, environment.name);

  if (!variants) {
    return (
      <div className="variants">
        <h4>Variants</h4>
        {environment.variants.length === 0 ? (
          <p className="muted">No variants.</p>
        ) : (
          <ul className="variant-list">
            {environment.variants.map((v) => (
              <li key={v.name}>
                <strong>{v.name}</strong> {(v.weight / 10).toFixed(1)}%
                {v.weightType === "fix" ? " (fixed)" : ""}
                {v.payload && (
                  <span className="muted">
                    {" "}
                    · {v.payload.type}: {v.payload.value}
                  </span>
                )}
                {v.overrides.length > 0 && <span className="muted"> · {v.overrides.length} override(s)</span>}
              </li>
            ))}
          </ul>
        )}
        {mayEdit && (
          <button type="button" className="secondary" onClick={() => setVariants(variantsOf(environment))}>
            Edit variants in {environment.name}
          </button>
        )}
      </div>
    );
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = (variants ?? []).map((v) => ({
      ...v,
      weight: v.weightType === "fix" ? Math.round(v.weight) : null,
    }));
    const outcome = await run(() => save({ project, name, environment: environment.name, variants: input }), {
      action: "patchVariant",
      payload: { variants: input },
    });
    setProblem(pathProblemOf(outcome.error));
    if (!outcome.error) {
      setVariants(null);
      props.onOutcome(outcome);
    }
  }

  return (
    <form className="variants card" aria-label={`Variants in ${environment.name}`} onSubmit={submit}>
      <VariantsFields
        legend={`Variants in ${environment.name}`}
        variants={variants}
        onChange={setVariants}
        problem={problem}
        withOverrides
      />
      <GeneralProblems problem={problem} />
      <div className="form-actions">
        <button type="submit">{props.needsReview ? "Propose variants" : "Save variants"}</button>
        <button type="button" className="secondary" onClick={() => setVariants(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Rows of variants, for a strategy (2.4) or an environment (2.5, with overrides). */
export function VariantsFields(props: {
  legend: string;
  variants: VariantValue[];
  onChange(variants: VariantValue[]): void;
  problem: PathProblem | null;
  withOverrides: boolean;
}) {
  const replace = (index: number, v: VariantValue) =>
    props.onChange(props.variants.map((old, i) => (i === index ? v : old)));
  // What the server will store: variable variants share what the fixed ones leave.
  const weights = sharedWeights(props.variants);
  function addVariant() {
    const base: VariantValue = {
      name: `variant-${props.variants.length + 1}`,
      weight: 0,
      weightType: "variable",
      stickiness: "default",
      payload: null,
    };
    props.onChange([...props.variants, props.withOverrides ? { ...base, overrides: [] } : base]);
  }
  return (
    <fieldset className="variant-fields">
      <legend>{props.legend}</legend>
      {props.variants.map((v, index) => (
        <VariantRow
          // biome-ignore lint/suspicious/noArrayIndexKey: a variant's name is being edited; its place is its identity
          key={index}
          index={index}
          variant={v}
          weight={weights[index] ?? v.weight}
          problem={props.problem}
          withOverrides={props.withOverrides}
          onChange={(changed) => replace(index, changed)}
          onRemove={() => props.onChange(props.variants.filter((_, i) => i !== index))}
        />
      ))}
      <button type="button" className="secondary" onClick={addVariant}>
        Add variant
      </button>
    </fieldset>
  );
}

function VariantRow(props: {
  index: number;
  variant: VariantValue;
  /** The weight the server will store (a variable variant's share). */
  weight: number;
  problem: PathProblem | null;
  withOverrides: boolean;
  onChange(v: VariantValue): void;
  onRemove(): void;
}) {
  const { variant: v, index, problem } = props;
  const n = index + 1;
  const path = `variants.${index}`;
  const { choices } = useFlag();
  const stickiness = [
    ...new Set([
      "default",
      "random",
      "userId",
      "sessionId",
      ...(choices?.contextFields ?? []).filter((f) => f.stickiness).map((f) => f.name),
      v.stickiness,
    ]),
  ];
  return (
    <fieldset className="variant-row" aria-label={`Variant ${n}`}>
      <Field
        label={`Name of variant ${n}`}
        name="name"
        value={v.name}
        required
        problem={fieldProblem(problem, `${path}.name`, "name")}
        onChange={(e) => props.onChange({ ...v, name: e.target.value })}
      />
      <SelectField
        label={`Weight type of variant ${n}`}
        name="weightType"
        value={v.weightType}
        problem={fieldProblem(problem, `${path}.weightType`, "weightType")}
        onChange={(e) =>
          props.onChange({
            ...v,
            weightType: e.target.value === "fix" ? "fix" : "variable",
            // A variant fixed from variable keeps the share it had.
            weight: props.weight,
          })
        }
      >
        <option value="variable">variable</option>
        <option value="fix">fix</option>
      </SelectField>
      <Field
        label={`Weight of variant ${n} (of 1000)`}
        name="weight"
        type="number"
        min={0}
        max={1000}
        value={String(v.weightType === "fix" ? v.weight : props.weight)}
        disabled={v.weightType !== "fix"}
        problem={fieldProblem(problem, `${path}.weight`, "weight")}
        onChange={(e) => props.onChange({ ...v, weight: Number(e.target.value) })}
      />
      <SelectField
        label={`Stickiness of variant ${n}`}
        name="stickiness"
        value={v.stickiness}
        problem={fieldProblem(problem, `${path}.stickiness`, "stickiness")}
        onChange={(e) => props.onChange({ ...v, stickiness: e.target.value })}
      >
        {stickiness.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </SelectField>
      <PayloadFields {...props} />
      {props.withOverrides && <OverridesFields {...props} />}
      <button type="button" className="danger" onClick={props.onRemove} aria-label={`Remove variant ${n}`}>
        Remove
      </button>
    </fieldset>
  );
}

function PayloadFields(props: {
  index: number;
  variant: VariantValue;
  problem: PathProblem | null;
  onChange(v: VariantValue): void;
}) {
  const { variant: v, index, problem } = props;
  const n = index + 1;
  const path = `variants.${index}.payload`;
  return (
    <>
      <SelectField
        label={`Payload type of variant ${n}`}
        name="payloadType"
        value={v.payload?.type ?? ""}
        problem={fieldProblem(problem, `${path}.type`, "payloadType")}
        onChange={(e) =>
          props.onChange({
            ...v,
            payload: e.target.value
              ? { type: e.target.value as PayloadType, value: v.payload?.value ?? "" }
              : null,
          })
        }
      >
        <option value="">no payload</option>
        {PAYLOAD_TYPES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </SelectField>
      {v.payload && (
        <Field
          label={`Payload of variant ${n}`}
          name="payloadValue"
          value={v.payload.value}
          problem={fieldProblem(problem, `${path}.value`, "payloadValue")}
          onChange={(e) =>
            props.onChange({ ...v, payload: { type: v.payload?.type ?? "string", value: e.target.value } })
          }
        />
      )}
    </>
  );
}

function OverridesFields(props: { index: number; variant: VariantValue; onChange(v: VariantValue): void }) {
  const { variant: v } = props;
  const n = props.index + 1;
  const { choices } = useFlag();
  const overrides = v.overrides ?? [];
  const names = [...BUILT_IN_CONTEXT_FIELDS, ...(choices?.contextFields ?? []).map((f) => f.name)];
  const set = (next: { contextName: string; values: string[] }[]) =>
    props.onChange({ ...v, overrides: next });
  return (
    <div className="overrides">
      {overrides.map((o, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: overrides have no identity but their place
        <fieldset key={i} className="override-row" aria-label={`Override ${i + 1} of variant ${n}`}>
          <SelectField
            label={`Context field of override ${i + 1}`}
            name="overrideContext"
            value={o.contextName}
            onChange={(e) =>
              set(overrides.map((x, j) => (j === i ? { ...x, contextName: e.target.value } : x)))
            }
          >
            {[...new Set([...names, o.contextName])].map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </SelectField>
          <Field
            label={`Values of override ${i + 1} (comma-separated)`}
            name="overrideValues"
            value={o.values.join(",")}
            onChange={(e) =>
              set(
                overrides.map((x, j) =>
                  j === i ? { ...x, values: e.target.value.split(",").map((s) => s.trim()) } : x,
                ),
              )
            }
          />
          <button
            type="button"
            className="danger"
            aria-label={`Remove override ${i + 1} of variant ${n}`}
            onClick={() => set(overrides.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        className="secondary"
        onClick={() => set([...overrides, { contextName: "userId", values: [] }])}
      >
        Add override to variant {n}
      </button>
    </div>
  );
}

/** The API's messages that belong to no field shown. */
export function GeneralProblems(props: { problem: PathProblem | null }) {
  if (!props.problem || props.problem.general.length === 0) return null;
  return (
    <div className="banner error" role="alert">
      {props.problem.general.map((m) => (
        <p key={m}>{m}</p>
      ))}
    </div>
  );
}
