import { useCallback, useMemo } from "react";
import { Link, useParams } from "react-router";
import { useQuery, useSubscription } from "urql";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { readFragment } from "../../lib/graphql.ts";
import { FlagContext, type FlagPageContext } from "./context.ts";
import { EnvironmentSection } from "./EnvironmentSection.tsx";
import { FlagAsOf } from "./FlagAsOf.tsx";
import { FlagHeader } from "./FlagHeader.tsx";
import { FlagHistory } from "./FlagHistory.tsx";
import { FlagReleases } from "./FlagReleases.tsx";
import { FlagUsage } from "./FlagUsage.tsx";
import { DependenciesSection, TagsSection } from "./LinksSections.tsx";
import {
  EnvironmentFields,
  FlagChangedSubscription,
  FlagChoicesQuery,
  FlagFields,
  FlagQuery,
} from "./queries.ts";

/** One flag: its settings, each environment's strategies and variants, tags, parents, history. */
export default function FlagPage() {
  const { project = "", name = "" } = useParams();
  const [result, reexecute] = useQuery({ query: FlagQuery, variables: { project, name } });
  const [choices] = useQuery({ query: FlagChoicesQuery, variables: { project } });
  // Every change to the flag, made here or elsewhere, arrives as the whole flag: the cache
  // (keyed by id) takes it, so the page stays current without a reload.
  useSubscription({ query: FlagChangedSubscription, variables: { project, name } });
  const refresh = useCallback(() => reexecute({ requestPolicy: "network-only" }), [reexecute]);
  const context = useMemo<FlagPageContext>(
    () => ({ project, name, choices: choices.data, refresh }),
    [project, name, choices.data, refresh],
  );

  const flag = readFragment(FlagFields, result.data?.projectFeature);
  if (!flag) {
    return (
      <>
        <PageTitle>{name}</PageTitle>
        <Pending fetching={result.fetching} error={result.error} />
      </>
    );
  }
  const reviewed = new Set(
    (result.data?.changeRequestConfig ?? []).filter((c) => c.changeRequestEnabled).map((c) => c.environment),
  );
  const environments = flag.environments
    .map((e) => readFragment(EnvironmentFields, e))
    .sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name));

  return (
    <FlagContext.Provider value={context}>
      <p className="breadcrumb">
        <Link to="/flags">Flags</Link> / {flag.project}
      </p>
      <FlagHeader flag={flag} />
      {/* An archived flag cannot change (the API refuses): its controls are shown disabled. */}
      <fieldset className="plain" disabled={flag.archived} aria-label="Flag configuration">
        <section aria-labelledby="environments-heading">
          <h2 id="environments-heading">Environments</h2>
          {environments.map((environment) => (
            <EnvironmentSection
              key={environment.id}
              environment={environment}
              needsReview={reviewed.has(environment.name)}
            />
          ))}
        </section>
        <TagsSection tags={flag.tags} />
        <DependenciesSection dependencies={flag.dependencies} childFlags={flag.children} />
      </fieldset>
      {!flag.archived && <FlagReleases environments={environments} reviewed={reviewed} />}
      <FlagUsage />
      <FlagAsOf />
      <FlagHistory />
    </FlagContext.Provider>
  );
}
