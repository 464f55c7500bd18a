import { Link } from "react-router";
import { useQuery } from "urql";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { Table } from "../../components/table.tsx";
import { graphql } from "../../lib/graphql.ts";
import { useSession } from "../../lib/session.tsx";

const Dashboard = graphql(`
  query PersonalDashboard {
    personalDashboard {
      flags { name project type }
      projects { id name health memberCount featureCount }
      projectOwners { ownerType name email imageUrl }
      admins { id name username email imageUrl }
    }
    viewer {
      user { id projectRoles { projectId role { id name } } }
    }
  }
`);

const LatestEvents = graphql(`
  query DashboardLatestEvents($features: [String!]!) {
    events(filter: { features: $features }, first: 10) {
      edges {
        node { id databaseId createdAt type label createdBy featureName project environment }
      }
    }
  }
`);

/** Spec 4.10: the caller's flags and projects, with their latest events and the people to ask. */
export default function DashboardPage() {
  const { viewer } = useSession();
  const [result] = useQuery({ query: Dashboard });
  const dashboard = result.data?.personalDashboard;
  const roles = result.data?.viewer.user?.projectRoles ?? [];
  return (
    <>
      <PageTitle>Welcome, {viewer.name}</PageTitle>
      <Pending fetching={result.fetching && !dashboard} error={result.error} />
      {dashboard && (
        <div className="dashboard">
          <section aria-labelledby="dash-flags">
            <h2 id="dash-flags">My flags</h2>
            <p className="muted">Flags you created or marked as favourite.</p>
            {dashboard.flags.length === 0 ? (
              <p>
                None yet. <Link to="/flags">Browse the flags</Link>
              </p>
            ) : (
              <Table columns={["Flag", "Project", "Type"]}>
                {dashboard.flags.map((flag) => (
                  <tr key={`${flag.project}/${flag.name}`}>
                    <td>
                      <Link to={`/projects/${flag.project}/flags/${flag.name}`}>{flag.name}</Link>
                    </td>
                    <td>
                      <Link to={`/projects/${flag.project}`}>{flag.project}</Link>
                    </td>
                    <td>{flag.type}</td>
                  </tr>
                ))}
              </Table>
            )}
            {dashboard.flags.length > 0 && <FlagEvents features={dashboard.flags.map((f) => f.name)} />}
          </section>

          <section aria-labelledby="dash-projects">
            <h2 id="dash-projects">My projects</h2>
            {dashboard.projects.length === 0 ? (
              <p>
                You are not a member of any project. <Link to="/projects">All projects</Link>
              </p>
            ) : (
              <Table columns={["Project", "Health", "Flags", "Members", "My roles"]}>
                {dashboard.projects.map((project) => (
                  <tr key={project.id}>
                    <td>
                      <Link to={`/projects/${project.id}`}>{project.name}</Link>
                    </td>
                    <td>
                      <meter
                        min={0}
                        max={100}
                        low={50}
                        high={80}
                        optimum={100}
                        value={project.health}
                        aria-label={`Health of ${project.name}`}
                      />{" "}
                      {project.health}%
                    </td>
                    <td>{project.featureCount}</td>
                    <td>{project.memberCount}</td>
                    <td>
                      {roles
                        .filter((r) => r.projectId === project.id)
                        .map((r) => r.role.name)
                        .join(", ") || "—"}
                    </td>
                  </tr>
                ))}
              </Table>
            )}
          </section>

          <section aria-labelledby="dash-people">
            <h2 id="dash-people">People to ask</h2>
            <h3>Project owners</h3>
            <PeopleList
              people={dashboard.projectOwners.map((o) => ({ key: `${o.name}-${o.email}`, ...o }))}
            />
            <h3>Admins</h3>
            <PeopleList
              people={dashboard.admins.map((a) => ({
                key: String(a.id),
                name: a.name ?? a.username ?? a.email,
                email: a.email,
                imageUrl: a.imageUrl,
              }))}
            />
          </section>
        </div>
      )}
    </>
  );
}

function FlagEvents(props: { features: string[] }) {
  const [result] = useQuery({ query: LatestEvents, variables: { features: props.features } });
  const events = result.data?.events.edges ?? [];
  return (
    <>
      <h3>Latest events on my flags</h3>
      <Pending fetching={result.fetching && !result.data} error={result.error} />
      {result.data && events.length === 0 && <p className="muted">No events yet.</p>}
      <ul className="plain-list">
        {events.map(({ node }) => (
          <li key={node.id}>
            <time dateTime={node.createdAt}>{new Date(node.createdAt).toLocaleString()}</time>{" "}
            <strong>{node.label ?? node.type}</strong> {node.featureName}
            {node.environment && ` in ${node.environment}`} by {node.createdBy}
          </li>
        ))}
      </ul>
      <Link to={`/events?feature=${props.features.map(encodeURIComponent).join(",")}`}>All their events</Link>
    </>
  );
}

function PeopleList(props: {
  people: { key: string; name: string; email: string | null; imageUrl: string | null }[];
}) {
  if (props.people.length === 0) return <p className="muted">Nobody.</p>;
  return (
    <ul className="plain-list people">
      {props.people.map((person) => (
        <li key={person.key}>
          {person.imageUrl && <img src={person.imageUrl} alt="" className="avatar" width={24} height={24} />}{" "}
          {person.name}
          {person.email && (
            <>
              {" "}
              <a href={`mailto:${person.email}`}>{person.email}</a>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
