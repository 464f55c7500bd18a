import type { FormEvent } from "react";
import { Link } from "react-router";
import { useMutation } from "urql";
import { NamedOptions } from "../../components/choices.tsx";
import { Field, ProblemBanner, SelectField } from "../../components/form.tsx";
import { problemOf } from "../../lib/errors.ts";
import { useSession } from "../../lib/session.tsx";
import { useFlag } from "./context.ts";
import type { Flag } from "./FlagHeader.tsx";
import { AddDependency, AddTag, RemoveDependency, RemoveTag } from "./queries.ts";

/** The flag's tags (spec 2.1): a value of a tag type, added and removed one by one. */
export function TagsSection(props: { tags: Flag["tags"] }) {
  const { name, project, choices, refresh } = useFlag();
  const mayEdit = useSession().can("UPDATE_FEATURE", project);
  const [adding, add] = useMutation(AddTag);
  const [removing, remove] = useMutation(RemoveTag);
  const problem = problemOf(adding.error ?? removing.error);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const result = await add({ name, type: String(data.get("type")), value: String(data.get("value")) });
    if (!result.error) {
      form.reset();
      refresh();
    }
  }

  return (
    <section className="card" aria-labelledby="tags-heading">
      <h2 id="tags-heading">Tags</h2>
      {props.tags.length === 0 ? (
        <p className="muted">No tags.</p>
      ) : (
        <ul className="tag-list" aria-label="Tags">
          {props.tags.map((tag) => (
            <li key={`${tag.type}:${tag.value}`}>
              <span className="badge">
                {tag.type}: {tag.value}
              </span>
              {mayEdit && (
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Remove tag ${tag.type}: ${tag.value}`}
                  onClick={() => remove({ name, type: tag.type, value: tag.value })}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {mayEdit && (
        <form className="inline-form" aria-label="Add tag" onSubmit={submit}>
          <SelectField label="Tag type" name="type" problem={problem}>
            {(choices?.tagTypes ?? []).map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </SelectField>
          <Field label="Tag value" name="value" required problem={problem} />
          <button type="submit" disabled={adding.fetching}>
            Add tag
          </button>
          <ProblemBanner problem={problem} />
        </form>
      )}
    </section>
  );
}

/** Parents the flag depends on (enabled, or one of their variants), and its children. */
export function DependenciesSection(props: { dependencies: Flag["dependencies"]; childFlags: string[] }) {
  const { project, name, choices } = useFlag();
  const mayEdit = useSession().can("UPDATE_FEATURE_DEPENDENCY", project);
  const [adding, add] = useMutation(AddDependency);
  const [removing, remove] = useMutation(RemoveDependency);
  const problem = problemOf(adding.error ?? removing.error);
  const candidates = (choices?.projectFeatures ?? []).filter(
    (f) => f.name !== name && !props.dependencies.some((d) => d.feature === f.name),
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const variants = String(data.get("variants") ?? "")
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean);
    const result = await add({
      project,
      name,
      input: { feature: String(data.get("feature")), enabled: data.get("enabled") === "on", variants },
    });
    if (!result.error) form.reset();
  }

  function removeDependency(parent: string) {
    if (window.confirm(`Remove the dependency on ${parent}?`)) void remove({ project, name, parent });
  }

  return (
    <section className="card" aria-labelledby="dependencies-heading">
      <h2 id="dependencies-heading">Dependencies</h2>
      {props.dependencies.length === 0 ? (
        <p className="muted">No parent flag.</p>
      ) : (
        <ul className="dependency-list" aria-label="Parent flags">
          {props.dependencies.map((d) => (
            <li key={d.feature}>
              <Link to={`/projects/${project}/flags/${d.feature}`}>{d.feature}</Link>{" "}
              {d.enabled
                ? d.variants.length
                  ? `with variant ${d.variants.join(" or ")}`
                  : "enabled"
                : "disabled"}{" "}
              {mayEdit && (
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Remove dependency on ${d.feature}`}
                  onClick={() => removeDependency(d.feature)}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {props.childFlags.length > 0 && (
        <p>
          Children:{" "}
          {props.childFlags.map((child) => (
            <Link key={child} to={`/projects/${project}/flags/${child}`} className="child-link">
              {child}
            </Link>
          ))}
        </p>
      )}
      {mayEdit && (
        <form className="inline-form" aria-label="Add dependency" onSubmit={submit}>
          <SelectField label="Parent flag" name="feature" problem={problem} required>
            <NamedOptions items={candidates} valueOf={(f) => f.name} />
          </SelectField>
          <div className="field checkbox">
            <label>
              <input type="checkbox" name="enabled" defaultChecked /> Parent enabled
            </label>
          </div>
          <Field label="Parent variants (comma-separated)" name="variants" problem={problem} />
          <button type="submit" disabled={adding.fetching || candidates.length === 0}>
            Add dependency
          </button>
          <ProblemBanner problem={problem} />
        </form>
      )}
    </section>
  );
}
