import { type FormEvent, type ReactNode, useState } from "react";
import { type CombinedError, useMutation } from "urql";
import { NamedOptions } from "../../components/choices.tsx";
import { Field, ProblemBanner, SelectField } from "../../components/form.tsx";
import { PageTitle } from "../../components/layout.tsx";
import { problemOf } from "../../lib/errors.ts";
import type { ResultOf } from "../../lib/graphql.ts";
import { useSession } from "../../lib/session.tsx";
import { useFlag } from "./context.ts";
import {
  ArchiveFlag,
  CompleteFlag,
  FavoriteFlag,
  type FlagFields,
  ReviveFlag,
  SetStale,
  UncompleteFlag,
  UnfavoriteFlag,
  UpdateFlag,
} from "./queries.ts";

export type Flag = ResultOf<typeof FlagFields>;

/** The flag's own settings (spec 2.8): name, description, type, impression data, state. */
export function FlagHeader(props: { flag: Flag }) {
  const { flag } = props;
  return (
    <header className="flag-header">
      <PageTitle actions={<FlagActions flag={flag} />}>
        {flag.name}
        {flag.stale && <span className="badge">stale</span>}
        {flag.potentiallyStale && !flag.stale && <span className="badge">potentially stale</span>}
        {flag.archived && <span className="badge off">archived</span>}
      </PageTitle>
      {flag.archived && (
        <div className="banner info" role="status">
          This flag is archived{flag.archivedAt ? ` since ${new Date(flag.archivedAt).toLocaleString()}` : ""}
          .
        </div>
      )}
      <dl className="flag-facts">
        <dt>Project</dt>
        <dd>{flag.project}</dd>
        <dt>Created</dt>
        <dd>{new Date(flag.createdAt).toLocaleString()}</dd>
        <dt>Lifecycle</dt>
        <dd>
          <span className="badge">{flag.lifecycle?.stage ?? "unknown"}</span>
          {flag.lifecycle?.status && ` (${flag.lifecycle.status})`}
        </dd>
      </dl>
      <EditableByPermission permission="UPDATE_FEATURE">
        <SettingsForm flag={flag} />
        <Lifecycle flag={flag} />
      </EditableByPermission>
    </header>
  );
}

function FlagActions(props: { flag: Flag }) {
  const { flag } = props;
  const { project, name } = useFlag();
  const [favorite, setFavorite] = useMutation(FavoriteFlag);
  const [unfavorite, setUnfavorite] = useMutation(UnfavoriteFlag);
  const [stale, setStale] = useMutation(SetStale);
  const [archive, setArchive] = useMutation(ArchiveFlag);
  const [revive, setRevive] = useMutation(ReviveFlag);
  const error: CombinedError | undefined =
    favorite.error ?? unfavorite.error ?? stale.error ?? archive.error ?? revive.error;

  const { can } = useSession();
  async function archiveFlag() {
    if (!window.confirm(`Archive flag ${name}? SDKs will no longer get it.`)) return;
    await setArchive({ project, name });
  }

  return (
    <>
      <button
        type="button"
        className="secondary star"
        aria-pressed={flag.favorite}
        aria-label="Favourite"
        onClick={() => (flag.favorite ? setUnfavorite({ project, name }) : setFavorite({ project, name }))}
      >
        {flag.favorite ? "★" : "☆"}
      </button>
      {can("UPDATE_FEATURE", project) && (
        <button
          type="button"
          className="secondary"
          aria-pressed={flag.stale}
          onClick={() => setStale({ project, name, stale: !flag.stale })}
        >
          {flag.stale ? "Mark active" : "Mark stale"}
        </button>
      )}
      {flag.archived
        ? can("UPDATE_FEATURE", project) && (
            <button type="button" className="secondary" onClick={() => setRevive({ project, name })}>
              Revive
            </button>
          )
        : can("DELETE_FEATURE", project) && (
            <button type="button" className="danger" onClick={() => void archiveFlag()}>
              Archive
            </button>
          )}
      <ProblemBanner problem={problemOf(error)} showFieldErrors />
    </>
  );
}

function SettingsForm(props: { flag: Flag }) {
  const { flag } = props;
  const { project, name, choices } = useFlag();
  const [result, update] = useMutation(UpdateFlag);
  const [saved, setSaved] = useState(false);
  const problem = problemOf(result.error);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const updated = await update({
      project,
      name,
      input: {
        description: String(data.get("description") ?? ""),
        type: String(data.get("type")),
        impressionData: data.get("impressionData") === "on",
      },
    });
    setSaved(!updated.error);
  }

  const types = choices?.featureTypes ?? [];
  return (
    <form
      className="inline-form flag-settings"
      aria-label="Flag settings"
      onSubmit={submit}
      // A change made elsewhere resets the form to the stored values.
      key={`${flag.description}|${flag.type}|${flag.impressionData}`}
    >
      <Field
        label="Description"
        name="description"
        defaultValue={flag.description ?? ""}
        problem={problem}
        onChange={() => setSaved(false)}
      />
      <SelectField label="Type" name="type" defaultValue={flag.type} problem={problem}>
        {types.length === 0 && <option value={flag.type}>{flag.type}</option>}
        <NamedOptions items={types} valueOf={(t) => t.id} />
      </SelectField>
      <div className="field checkbox">
        <label>
          <input type="checkbox" name="impressionData" defaultChecked={flag.impressionData} /> Impression data
        </label>
      </div>
      <button type="submit" disabled={result.fetching}>
        Save settings
      </button>
      {saved && (
        <p className="saved" role="status">
          Saved.
        </p>
      )}
      <ProblemBanner problem={problem} />
    </form>
  );
}

/** Lifecycle (spec 3.3): a flag can be marked completed, kept or discarded, and taken back. */
function Lifecycle(props: { flag: Flag }) {
  const { project, name } = useFlag();
  const [complete, setComplete] = useMutation(CompleteFlag);
  const [uncomplete, setUncomplete] = useMutation(UncompleteFlag);
  const problem = problemOf(complete.error ?? uncomplete.error);

  if (props.flag.lifecycle?.stage === "completed") {
    return (
      <div className="inline-form">
        <button type="button" className="secondary" onClick={() => setUncomplete({ project, name })}>
          Uncomplete
        </button>
        <ProblemBanner problem={problem} showFieldErrors />
      </div>
    );
  }
  // Nothing to complete before an SDK has seen the flag (Unleash offers it from then on).
  if (props.flag.archived || !props.flag.lifecycle || props.flag.lifecycle.stage === "initial") return null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const status = data.get("status") === "discarded" ? "discarded" : "kept";
    await setComplete({ project, name, status, statusValue: String(data.get("statusValue") ?? "") || null });
  }
  return (
    <form className="inline-form" aria-label="Complete flag" onSubmit={submit}>
      <SelectField label="Outcome" name="status" defaultValue="kept" problem={problem}>
        <option value="kept">kept</option>
        <option value="discarded">discarded</option>
      </SelectField>
      <Field label="What was kept" name="statusValue" problem={problem} />
      <button type="submit" className="secondary" disabled={complete.fetching}>
        Mark completed
      </button>
      <ProblemBanner problem={problem} />
    </form>
  );
}

/** Its children only for a viewer holding `permission` in the flag's project. */
function EditableByPermission(props: { permission: string; children: ReactNode }) {
  const { project } = useFlag();
  return useSession().can(props.permission, project) ? props.children : null;
}
