import { Link } from "react-router";
import { useQuery } from "urql";
import { graphql, type ResultOf, readFragment } from "../../lib/graphql.ts";
import { StrategyFields } from "../flag/queries.ts";
import {
  type ChangeDescription,
  DiffTable,
  describeFlagChange,
  describeSegmentChange,
  type FlagState,
} from "./diff.tsx";
import { ChangeRequestSummary, userLabel } from "./state.tsx";

export const ChangeRequestFields = graphql(
  `
  fragment ChangeRequestFields on ChangeRequest {
    ...ChangeRequestSummary
    createdBy { id username imageUrl }
    approvals { createdAt createdBy { id username } }
    rejections { createdAt createdBy { id username } }
    comments { id text createdAt createdBy { id username imageUrl } }
    schedule { status scheduledAt reason }
    features {
      name
      conflict
      defaultChange { action payload }
      changes { id action conflict payload createdAt createdBy { id username } }
      stateBeforeApply {
        archived
        dependencies { feature enabled variants }
        environments {
          name
          enabled
          variants { name weight weightType stickiness payload { type value } }
          strategies {
            databaseId name title disabled sortOrder parameters segments
            constraints { contextName operator values value inverted caseInsensitive }
            variants { name weight weightType stickiness payload { type value } }
          }
        }
      }
    }
    segments { id name action conflict payload createdAt createdBy { id username } }
  }
`,
  [ChangeRequestSummary],
);

const FlagNow = graphql(
  `
  query ChangeRequestFlagNow($project: String!, $name: String!) {
    projectFeature(project: $project, name: $name) {
      id
      name
      archived
      dependencies { feature enabled variants }
      environments {
        id
        name
        enabled
        variants { name weight weightType stickiness payload { type value } }
        strategies { ...StrategyFields }
      }
    }
  }
`,
  [StrategyFields],
);

type Change = {
  id: number;
  action: string;
  conflict: string | null;
  payload: unknown;
  createdBy: { id: number; username: string | null };
};

/**
 * The changes to one flag, each compared with the flag as it is now in the environment, or, once
 * the request is applied, as it was just before (from the flag's history).
 */
export function FlagChanges(props: {
  project: string;
  environment: string;
  feature: {
    name: string;
    conflict: string | null;
    defaultChange: { action: string; payload: unknown } | null;
    changes: Change[];
    stateBeforeApply: PastFlag | null;
  };
  onDiscard: ((change: Change) => void) | null;
}) {
  const past = props.feature.stateBeforeApply;
  const [result] = useQuery({
    query: FlagNow,
    variables: { project: props.project, name: props.feature.name },
    pause: past !== null,
  });
  const state = past
    ? pastState(past, props.environment)
    : nowState(result.data?.projectFeature, props.environment);
  return (
    <section className="cr-flag" aria-label={`Changes to ${props.feature.name}`}>
      <h3>
        <Link to={`/projects/${props.project}/flags/${props.feature.name}`}>{props.feature.name}</Link>
      </h3>
      {props.feature.conflict && (
        <p className="banner error" role="alert">
          Conflict: {props.feature.conflict}
        </p>
      )}
      {props.feature.changes.map((change) => (
        <ChangeView
          key={change.id}
          change={change}
          description={describeFlagChange(change.action, change.payload, state)}
          onDiscard={props.onDiscard}
        />
      ))}
      {props.feature.defaultChange && (
        <div className="cr-change">
          <p>
            <strong>Added with it:</strong> the strategy the flag needs to be on (not a change of its own)
          </p>
          <DiffTable caption="Default strategy" before={null} after={props.feature.defaultChange.payload} />
        </div>
      )}
    </section>
  );
}

type PastFlag = Omit<FlagState, "environment"> & {
  environments: (NonNullable<FlagState["environment"]> & { name: string })[];
};
type FlagNowData = NonNullable<ResultOf<typeof FlagNow>["projectFeature"]>;

function pastState(flag: PastFlag, environment: string): FlagState {
  return {
    archived: flag.archived,
    dependencies: flag.dependencies,
    environment: flag.environments.find((e) => e.name === environment) ?? null,
  };
}

function nowState(flag: FlagNowData | null | undefined, environment: string): FlagState | null {
  if (!flag) return null;
  const env = flag.environments.find((e) => e.name === environment);
  return {
    archived: flag.archived,
    dependencies: flag.dependencies,
    environment: env
      ? { ...env, strategies: env.strategies.map((s) => readFragment(StrategyFields, s)) }
      : null,
  };
}

export function SegmentChanges(props: {
  segments: (Change & { name: string | null })[];
  onDiscard: ((change: Change) => void) | null;
}) {
  if (props.segments.length === 0) return null;
  return (
    <section className="cr-flag" aria-label="Segment changes">
      <h3>Segments</h3>
      {props.segments.map((change) => (
        <ChangeView
          key={change.id}
          change={change}
          description={describeSegmentChange(change.action, change.payload, change.name)}
          onDiscard={props.onDiscard}
        />
      ))}
    </section>
  );
}

function ChangeView(props: {
  change: Change;
  description: ChangeDescription;
  onDiscard: ((change: Change) => void) | null;
}) {
  const { change, description, onDiscard } = props;
  return (
    <div className="cr-change">
      <div className="cr-change-head">
        <strong>{description.summary}</strong>
        <span className="muted">
          {change.action} by {userLabel(change.createdBy)}
        </span>
        {onDiscard && (
          <button type="button" className="secondary" onClick={() => onDiscard(change)}>
            Discard change {change.id}
          </button>
        )}
      </div>
      {change.conflict && (
        <p className="banner error" role="alert">
          Conflict: {change.conflict}
        </p>
      )}
      <DiffTable caption={description.summary} before={description.before} after={description.after} />
    </div>
  );
}
