import { useState } from "react";
import { useQuery } from "urql";
import { userChoiceLabel, useUserChoices } from "../../components/choices.tsx";
import { Field, SelectField } from "../../components/form.tsx";
import { useSession } from "../../lib/session.tsx";
import { FilterOptions } from "./queries.ts";
import {
  changed,
  LIFECYCLE_STAGES,
  LIST_OPERATORS,
  operatorOf,
  PAGE_SIZES,
  pageSizeOf,
  SET_OPERATORS,
  SORT_FIELDS,
  STATES,
  setAll,
  setOrDelete,
  sortOf,
  statusesOf,
  valuesOf,
} from "./search-state.ts";

type Option = { value: string; label: string };
type Props = { params: URLSearchParams; onChange(next: URLSearchParams): void };

/** Every filter and the order of the flag search; each change applies at once. */
export function FlagFilters({ params, onChange }: Props) {
  const { viewer } = useSession();
  const [options] = useQuery({ query: FilterOptions });
  const creators = useUserChoices();
  const data = options.data;
  // Open at first when the URL filters on what it hides; then as the user leaves it.
  const [open, setOpen] = useState(() => hasDetailedFilters(params));
  const update = (change: (next: URLSearchParams) => void) => onChange(changed(params, change));

  const me = viewer.user ? [{ value: String(viewer.user.databaseId), label: `Me (${viewer.name})` }] : [];
  const creatorOptions: Option[] = creators.data
    ? creators.data.users.map((u) => ({ value: String(u.databaseId), label: userChoiceLabel(u) }))
    : me;
  const environments = data?.environments ?? [];
  const statuses = statusesOf(params);
  const sort = sortOf(params);
  const sortValue = sort.field === "ENVIRONMENT" ? `ENVIRONMENT:${sort.environment}` : sort.field;
  const created = /^(IS_BEFORE|IS_ON_OR_AFTER):(.*)$/.exec(params.get("created") ?? "");

  return (
    <search className="flag-filters" aria-label="Flag filters">
      <div className="toolbar">
        <Field
          label="Search"
          name="q"
          type="search"
          placeholder="Name, description or tag; commas for OR"
          value={params.get("q") ?? ""}
          onChange={(e) => update((next) => setOrDelete(next, "q", e.target.value))}
        />
        <SelectField
          label="Sort by"
          name="sort"
          value={sortValue}
          onChange={(e) =>
            update((next) => setOrDelete(next, "sort", e.target.value !== "CREATED_AT" && e.target.value))
          }
        >
          {Object.entries(SORT_FIELDS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
          {environments.map((env) => (
            <option key={env.id} value={`ENVIRONMENT:${env.name}`}>
              Enabled in {env.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Direction"
          name="dir"
          value={sort.desc ? "DESC" : "ASC"}
          onChange={(e) => update((next) => setOrDelete(next, "dir", e.target.value === "DESC" && "DESC"))}
        >
          <option value="ASC">Ascending</option>
          <option value="DESC">Descending</option>
        </SelectField>
        <SelectField
          label="Per page"
          name="size"
          value={String(pageSizeOf(params))}
          onChange={(e) =>
            update((next) => setOrDelete(next, "size", e.target.value !== "50" && e.target.value))
          }
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </SelectField>
        <Checkbox label="Favourites first" name="favoritesFirst" params={params} update={update} />
        <Checkbox label="Favourites only" name="favorites" params={params} update={update} />
        <Checkbox label="Archived flags" name="archived" params={params} update={update} />
      </div>
      <details className="more-filters" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>Filters</summary>
        <div className="filter-grid">
          <ListFilter
            label="Project"
            name="project"
            options={(data?.projects ?? []).map((p) => ({ value: p.databaseId, label: p.name }))}
            {...{ params, update }}
          />
          <ListFilter
            label="Type"
            name="type"
            options={(data?.featureTypes ?? []).map((t) => ({ value: t.id, label: t.name }))}
            {...{ params, update }}
          />
          <ListFilter label="State" name="state" options={plain(STATES)} {...{ params, update }} />
          <ListFilter
            label="Lifecycle"
            name="lifecycle"
            options={plain(LIFECYCLE_STAGES)}
            {...{ params, update }}
          />
          <ListFilter label="Created by" name="createdBy" options={creatorOptions} {...{ params, update }} />
          <SetFilter
            label="Tags"
            name="tag"
            options={(data?.tags ?? []).map((t) => ({
              value: `${t.type}:${t.value}`,
              label: `${t.type}: ${t.value}`,
            }))}
            {...{ params, update }}
          />
          <SetFilter
            label="Segments"
            name="segment"
            options={(data?.segments ?? []).map((s) => ({ value: s.name, label: s.name }))}
            {...{ params, update }}
          />
          <fieldset className="filter">
            <legend>Created</legend>
            <SelectField
              label="Created when"
              name="createdOp"
              value={created?.[1] ?? "IS_ON_OR_AFTER"}
              onChange={(e) =>
                update((next) =>
                  setOrDelete(next, "created", created?.[2] && `${e.target.value}:${created[2]}`),
                )
              }
            >
              <option value="IS_ON_OR_AFTER">On or after</option>
              <option value="IS_BEFORE">Before</option>
            </SelectField>
            <Field
              label="Created day"
              name="createdDay"
              type="date"
              value={created?.[2] ?? ""}
              onChange={(e) =>
                update((next) =>
                  setOrDelete(
                    next,
                    "created",
                    e.target.value && `${created?.[1] ?? "IS_ON_OR_AFTER"}:${e.target.value}`,
                  ),
                )
              }
            />
          </fieldset>
          <fieldset className="filter">
            <legend>Status</legend>
            {environments.map((env) => (
              <SelectField
                key={env.id}
                label={`In ${env.name}`}
                name={`status-${env.name}`}
                value={statuses.has(env.name) ? (statuses.get(env.name) ? "enabled" : "disabled") : ""}
                onChange={(e) =>
                  update((next) => {
                    statuses.delete(env.name);
                    if (e.target.value) statuses.set(env.name, e.target.value === "enabled");
                    setAll(
                      next,
                      "status",
                      [...statuses].map(([name, on]) => `${name}:${on ? "enabled" : "disabled"}`),
                    );
                  })
                }
              >
                <option value="">Either</option>
                <option value="enabled">Enabled</option>
                <option value="disabled">Disabled</option>
              </SelectField>
            ))}
          </fieldset>
        </div>
        <button
          type="button"
          className="secondary"
          onClick={() => onChange(changed(params, (next) => keepOnly(next, ["size"])))}
        >
          Clear filters
        </button>
      </details>
    </search>
  );
}

function keepOnly(params: URLSearchParams, keys: string[]) {
  for (const key of [...params.keys()]) if (!keys.includes(key)) params.delete(key);
}

const plain = (values: string[]): Option[] => values.map((value) => ({ value, label: value }));

const DETAILED = [
  "project",
  "type",
  "state",
  "lifecycle",
  "createdBy",
  "tag",
  "segment",
  "created",
  "status",
];
const hasDetailedFilters = (params: URLSearchParams) => DETAILED.some((key) => params.has(key));

type FilterProps = {
  label: string;
  name: string;
  options: Option[];
  params: URLSearchParams;
  update(change: (next: URLSearchParams) => void): void;
};

function ListFilter(props: FilterProps) {
  return <MultiFilter {...props} operators={LIST_OPERATORS} />;
}

function SetFilter(props: FilterProps) {
  return <MultiFilter {...props} operators={SET_OPERATORS} />;
}

/** An operator and the values it applies to (none chosen: no filter). */
function MultiFilter(props: FilterProps & { operators: Record<string, string> }) {
  const { label, name, params, update, operators } = props;
  const values = valuesOf(params, name);
  // A value in the URL that the options lack (e.g. a deleted project) stays visible and removable.
  const options = [
    ...props.options,
    ...values.filter((v) => !props.options.some((o) => o.value === v)).map((v) => ({ value: v, label: v })),
  ];
  return (
    <fieldset className="filter">
      <legend>{label}</legend>
      <SelectField
        label={`${label} operator`}
        name={`${name}.op`}
        value={operatorOf(params, name, operators)}
        onChange={(e) =>
          update((next) =>
            setOrDelete(next, `${name}.op`, e.target.value !== Object.keys(operators)[0] && e.target.value),
          )
        }
      >
        {Object.entries(operators).map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={label}
        name={name}
        multiple
        size={Math.min(4, Math.max(2, options.length))}
        value={values}
        onChange={(e) =>
          update((next) =>
            setAll(
              next,
              name,
              [...e.target.selectedOptions].map((o) => o.value),
            ),
          )
        }
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </SelectField>
    </fieldset>
  );
}

function Checkbox(props: {
  label: string;
  name: string;
  params: URLSearchParams;
  update(change: (next: URLSearchParams) => void): void;
}) {
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={props.params.get(props.name) === "1"}
        onChange={(e) => props.update((next) => setOrDelete(next, props.name, e.target.checked && "1"))}
      />
      {props.label}
    </label>
  );
}
