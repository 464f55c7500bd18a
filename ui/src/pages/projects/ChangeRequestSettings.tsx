import { type FormEvent, useState } from "react";
import { useMutation, useQuery } from "urql";
import { Field, ProblemBanner } from "../../components/form.tsx";
import { Pending } from "../../components/layout.tsx";
import { problemOf } from "../../lib/errors.ts";
import { graphql, type ResultOf } from "../../lib/graphql.ts";
import { ChangeRequestApprovers } from "./ChangeRequestApprovers.tsx";

const ChangeRequestConfigQuery = graphql(`
  query ChangeRequestConfig($project: String!) {
    changeRequestConfig(project: $project) { environment type changeRequestEnabled requiredApprovals }
  }
`);

const UpdateChangeRequestConfig = graphql(`
  mutation UpdateChangeRequestConfig(
    $project: String!, $environment: String!, $changeRequestsEnabled: Boolean!, $requiredApprovals: Int
  ) {
    updateChangeRequestConfig(
      project: $project, environment: $environment,
      changeRequestsEnabled: $changeRequestsEnabled, requiredApprovals: $requiredApprovals
    ) { environment type changeRequestEnabled requiredApprovals }
  }
`);

type Config = ResultOf<typeof ChangeRequestConfigQuery>["changeRequestConfig"][number];

/** Per environment of the project: are change requests required, and how many approvals. */
export function ChangeRequestSettings(props: { project: string }) {
  const [result, refetch] = useQuery({
    query: ChangeRequestConfigQuery,
    variables: { project: props.project },
  });
  const configs = result.data?.changeRequestConfig;
  return (
    <section aria-labelledby="change-request-settings">
      <h2 id="change-request-settings">Change requests</h2>
      <Pending fetching={result.fetching && !configs} error={result.error} />
      {configs?.map((config) => (
        <EnvironmentSetting
          key={`${config.environment}:${config.changeRequestEnabled}:${config.requiredApprovals}`}
          project={props.project}
          config={config}
          onSaved={() => refetch({ requestPolicy: "network-only" })}
        />
      ))}
    </section>
  );
}

function EnvironmentSetting(props: { project: string; config: Config; onSaved(): void }) {
  const { config } = props;
  const [enabled, setEnabled] = useState(config.changeRequestEnabled);
  const [result, update] = useMutation(UpdateChangeRequestConfig);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const outcome = await update({
      project: props.project,
      environment: config.environment,
      changeRequestsEnabled: enabled,
      requiredApprovals: enabled ? Number(data.get("requiredApprovals")) : null,
    });
    if (!outcome.error) props.onSaved();
  }
  const problem = problemOf(result.error);
  return (
    <>
      <form className="inline-form" onSubmit={submit} aria-label={`Change requests in ${config.environment}`}>
        <strong>
          {config.environment} <span className="hint">({config.type})</span>
        </strong>
        <label className="check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Require change requests in {config.environment}
        </label>
        <Field
          label={`Approvals needed in ${config.environment}`}
          name="requiredApprovals"
          type="number"
          min={0}
          max={10}
          disabled={!enabled}
          defaultValue={config.requiredApprovals ?? 1}
          problem={problem}
        />
        <button type="submit" disabled={result.fetching}>
          Save {config.environment}
        </button>
        <ProblemBanner problem={problem} />
      </form>
      {config.changeRequestEnabled && (
        <ChangeRequestApprovers project={props.project} environment={config.environment} />
      )}
    </>
  );
}
