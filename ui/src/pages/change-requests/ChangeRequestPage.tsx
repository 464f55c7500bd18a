import { type FormEvent, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { type AnyVariables, type TypedDocumentNode, useClient, useQuery } from "urql";
import { Field, ProblemBanner } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { type ApiProblem, problemOf } from "../../lib/errors.ts";
import { graphql, type ResultOf, readFragment } from "../../lib/graphql.ts";
import { useRefetchOnEvents } from "../../lib/live.ts";
import { useSession } from "../../lib/session.tsx";
import { ChangeRequestFields, FlagChanges, SegmentChanges } from "./changes.tsx";
import { StateBadge, userLabel } from "./state.tsx";

const ChangeRequestQuery = graphql(
  `query ChangeRequest($id: Int!) { changeRequest(id: $id) { ...ChangeRequestFields } }`,
  [ChangeRequestFields],
);
const SendToReview = graphql(
  `mutation SendChangeRequestToReview($project: String!, $id: Int!) {
    sendChangeRequestToReview(project: $project, id: $id) { ...ChangeRequestFields }
  }`,
  [ChangeRequestFields],
);
const Approve = graphql(
  `mutation ApproveChangeRequest($project: String!, $id: Int!) {
    approveChangeRequest(project: $project, id: $id) { ...ChangeRequestFields }
  }`,
  [ChangeRequestFields],
);
const Reject = graphql(
  `mutation RejectChangeRequest($project: String!, $id: Int!) {
    rejectChangeRequest(project: $project, id: $id) { ...ChangeRequestFields }
  }`,
  [ChangeRequestFields],
);
const Apply = graphql(
  `mutation ApplyChangeRequest($project: String!, $id: Int!) {
    applyChangeRequest(project: $project, id: $id) { ...ChangeRequestFields }
  }`,
  [ChangeRequestFields],
);
const Cancel = graphql(
  `mutation CancelChangeRequest($project: String!, $id: Int!) {
    cancelChangeRequest(project: $project, id: $id) { ...ChangeRequestFields }
  }`,
  [ChangeRequestFields],
);
const Schedule = graphql(
  `mutation ScheduleChangeRequest($project: String!, $id: Int!, $scheduledAt: DateTime!) {
    scheduleChangeRequest(project: $project, id: $id, scheduledAt: $scheduledAt) { ...ChangeRequestFields }
  }`,
  [ChangeRequestFields],
);
const Comment = graphql(
  `mutation CommentOnChangeRequest($project: String!, $id: Int!, $text: String!) {
    commentOnChangeRequest(project: $project, id: $id, text: $text) { ...ChangeRequestFields }
  }`,
  [ChangeRequestFields],
);
const UpdateTitle = graphql(
  `mutation UpdateChangeRequestTitle($project: String!, $id: Int!, $title: String!) {
    updateChangeRequestTitle(project: $project, id: $id, title: $title) { ...ChangeRequestFields }
  }`,
  [ChangeRequestFields],
);
const DiscardChange = graphql(
  `mutation DiscardChangeRequestChange($project: String!, $id: Int!, $changeId: Int!) {
    discardChangeRequestChange(project: $project, id: $id, changeId: $changeId) { ...ChangeRequestFields }
  }`,
  [ChangeRequestFields],
);
const Discard = graphql(`
  mutation DiscardChangeRequest($project: String!, $id: Int!) {
    discardChangeRequest(project: $project, id: $id)
  }
`);

type Request = ResultOf<typeof ChangeRequestFields>;

/** Runs one mutation at a time and keeps the API's refusal of the last one. */
function useAction() {
  const client = useClient();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  async function run<Data, Variables extends AnyVariables>(
    document: TypedDocumentNode<Data, Variables>,
    variables: Variables,
  ) {
    setBusy(true);
    const result = await client.mutation(document, variables).toPromise();
    setBusy(false);
    setProblem(problemOf(result.error));
    return result;
  }
  return { busy, problem, run };
}

/** One change request: what it changes, its reviews and comments, and what may happen next. */
export default function ChangeRequestPage() {
  const param = useParams().id;
  const id = Number(param);
  const [result, refetch] = useQuery({
    query: ChangeRequestQuery,
    variables: { id },
    pause: !Number.isInteger(id),
  });
  const project = result.data?.changeRequest
    ? readFragment(ChangeRequestFields, result.data.changeRequest).project
    : null;
  // Reviews, comments and state changes made by others show at once.
  useRefetchOnEvents({ projects: project ? [project] : [] }, () =>
    refetch({ requestPolicy: "network-only" }),
  );
  const request = result.data?.changeRequest
    ? readFragment(ChangeRequestFields, result.data.changeRequest)
    : null;
  if (!request) {
    return (
      <>
        <PageTitle>Change request #{param}</PageTitle>
        <Pending fetching={result.fetching} error={result.error} />
        {!result.fetching && !result.error && <p>There is no change request with this id.</p>}
        <Link to="/change-requests">All change requests</Link>
      </>
    );
  }
  return <Review request={request} />;
}

function Review(props: { request: Request }) {
  const cr = props.request;
  const { viewer, isAdmin, can } = useSession();
  const mayApprove = can("APPROVE_CHANGE_REQUEST", cr.project, cr.environment);
  const mayApply = can("APPLY_CHANGE_REQUEST", cr.project, cr.environment);
  const navigate = useNavigate();
  const action = useAction();
  const isAuthor = viewer.user?.databaseId === cr.createdBy.id;
  const ids = { project: cr.project, id: cr.databaseId };
  const open = ["Draft", "In review", "Approved", "Scheduled"].includes(cr.state);
  const editable = isAuthor && (cr.state === "Draft" || cr.state === "In review");
  const discardChange = editable
    ? (change: { id: number; action: string }) => {
        if (window.confirm(`Discard the change "${change.action}" (${change.id}) from this request?`))
          void action.run(DiscardChange, { ...ids, changeId: change.id });
      }
    : null;

  async function discardRequest() {
    if (!window.confirm("Discard this draft change request and all its changes?")) return;
    const done = await action.run(Discard, ids);
    if (!done.error) navigate("/change-requests");
  }

  return (
    <>
      <PageTitle actions={<StateBadge state={cr.state} />}>{titleOf(cr)}</PageTitle>
      <dl className="facts">
        <dt>Project</dt>
        <dd>{cr.project}</dd>
        <dt>Environment</dt>
        <dd>{cr.environment}</dd>
        <dt>Author</dt>
        <dd>{userLabel(cr.createdBy)}</dd>
        <dt>Created</dt>
        <dd>
          <time dateTime={cr.createdAt}>{new Date(cr.createdAt).toLocaleString()}</time>
        </dd>
        <dt>Approvals</dt>
        <dd>
          {cr.approvals.length} of {cr.minApprovals} needed
          {cr.approvals.length > 0 && ` (${cr.approvals.map((a) => userLabel(a.createdBy)).join(", ")})`}
        </dd>
        {cr.rejections.length > 0 && (
          <>
            <dt>Rejected by</dt>
            <dd>{cr.rejections.map((r) => userLabel(r.createdBy)).join(", ")}</dd>
          </>
        )}
        {cr.schedule && (
          <>
            <dt>Schedule</dt>
            <dd>
              {cr.schedule.status}: {new Date(cr.schedule.scheduledAt).toLocaleString()}
              {cr.schedule.reason && ` (${cr.schedule.reason})`}
            </dd>
          </>
        )}
      </dl>
      {isAuthor && open && <TitleForm request={cr} />}

      <section aria-labelledby="cr-actions">
        <h2 id="cr-actions">Actions</h2>
        <ProblemBanner problem={action.problem} showFieldErrors />
        <div className="cr-actions">
          {cr.state === "Draft" && isAuthor && (
            <button type="button" disabled={action.busy} onClick={() => void action.run(SendToReview, ids)}>
              Send to review
            </button>
          )}
          {cr.state === "In review" && mayApprove && (
            <button type="button" disabled={action.busy} onClick={() => void action.run(Approve, ids)}>
              Approve
            </button>
          )}
          {(cr.state === "Approved" || cr.state === "Scheduled") && mayApply && (
            <button type="button" disabled={action.busy} onClick={() => void action.run(Apply, ids)}>
              {cr.state === "Scheduled" ? "Apply now" : "Apply changes"}
            </button>
          )}
          {["In review", "Approved", "Scheduled"].includes(cr.state) && mayApprove && (
            <button
              type="button"
              className="danger"
              disabled={action.busy}
              onClick={() => window.confirm("Reject this change request?") && void action.run(Reject, ids)}
            >
              Reject
            </button>
          )}
          {["In review", "Approved", "Scheduled"].includes(cr.state) && (isAuthor || isAdmin) && (
            <button
              type="button"
              className="secondary"
              disabled={action.busy}
              onClick={() => window.confirm("Cancel this change request?") && void action.run(Cancel, ids)}
            >
              Cancel request
            </button>
          )}
          {cr.state === "Draft" && isAuthor && (
            <button
              type="button"
              className="danger"
              disabled={action.busy}
              onClick={() => void discardRequest()}
            >
              Discard draft
            </button>
          )}
        </div>
        {cr.state === "In review" && !mayApprove && (
          <p className="muted" role="note">
            You cannot approve or reject change requests in {cr.environment} of {cr.project}: that takes the
            APPROVE_CHANGE_REQUEST permission there (the project's settings show who holds it).
          </p>
        )}
        {(cr.state === "Approved" || cr.state === "Scheduled") && mayApply && (
          <ScheduleForm
            busy={action.busy}
            onSchedule={(scheduledAt) => void action.run(Schedule, { ...ids, scheduledAt })}
          />
        )}
        {!open && (
          <p className="muted">
            This change request is {cr.state.toLowerCase()}: nothing more can happen to it.
          </p>
        )}
      </section>

      <section aria-labelledby="cr-changes">
        <h2 id="cr-changes">Changes</h2>
        {cr.features.length === 0 && cr.segments.length === 0 && <p>No changes.</p>}
        {!open && cr.features.length > 0 && (
          <p className="muted">
            {cr.state === "Applied"
              ? '"Before" shows the flag as it was just before the request was applied.'
              : '"Before" shows the flag as it is now: the request was closed without being applied.'}
          </p>
        )}
        {cr.features.map((feature) => (
          <FlagChanges
            key={feature.name}
            project={cr.project}
            environment={cr.environment}
            feature={feature}
            onDiscard={discardChange}
          />
        ))}
        <SegmentChanges segments={cr.segments} onDiscard={discardChange} />
      </section>

      <Comments request={cr} />
    </>
  );
}

function TitleForm(props: { request: Request }) {
  const action = useAction();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const title = String(new FormData(event.currentTarget).get("title"));
    await action.run(UpdateTitle, { project: props.request.project, id: props.request.databaseId, title });
  }
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Change the title">
      <Field
        label="Title"
        name="title"
        defaultValue={props.request.title}
        required
        problem={action.problem}
      />
      <button type="submit" className="secondary" disabled={action.busy}>
        Save title
      </button>
      <ProblemBanner problem={action.problem} />
    </form>
  );
}

/** `datetime-local` gives local wall-clock time; the API wants an instant. */
function ScheduleForm(props: { busy: boolean; onSchedule(scheduledAt: string): void }) {
  const [when, setWhen] = useState("");
  return (
    <form
      className="inline-form"
      aria-label="Schedule"
      onSubmit={(event) => {
        event.preventDefault();
        if (when) props.onSchedule(new Date(when).toISOString());
      }}
    >
      <Field
        label="Apply at (local time)"
        name="scheduledAt"
        type="datetime-local"
        required
        value={when}
        onChange={(e) => setWhen(e.target.value)}
      />
      <button type="submit" className="secondary" disabled={props.busy || !when}>
        Schedule
      </button>
    </form>
  );
}

function Comments(props: { request: Request }) {
  const action = useAction();
  const [text, setText] = useState("");
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const done = await action.run(Comment, {
      project: props.request.project,
      id: props.request.databaseId,
      text,
    });
    if (!done.error) setText("");
  }
  return (
    <section aria-labelledby="cr-comments">
      <h2 id="cr-comments">Comments</h2>
      {props.request.comments.length === 0 && <p className="muted">No comments yet.</p>}
      <ol className="comments">
        {props.request.comments.map((comment) => (
          <li key={comment.id}>
            <p className="muted">
              <img src={comment.createdBy.imageUrl} alt="" className="avatar" width={20} height={20} />{" "}
              {userLabel(comment.createdBy)},{" "}
              <time dateTime={comment.createdAt}>{new Date(comment.createdAt).toLocaleString()}</time>
            </p>
            <p className="comment-text">{comment.text}</p>
          </li>
        ))}
      </ol>
      <form onSubmit={submit} aria-label="Add a comment">
        <div className="field">
          <label htmlFor="cr-comment">Comment</label>
          <textarea
            id="cr-comment"
            name="text"
            rows={3}
            required
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <ProblemBanner problem={action.problem} showFieldErrors />
        <button type="submit" disabled={action.busy || !text.trim()}>
          Add comment
        </button>
      </form>
    </section>
  );
}

/** "Change request #2: Fix pricing", or the number alone when the title is the default one. */
function titleOf(cr: { databaseId: number; title: string | null }): string {
  const number = `Change request #${cr.databaseId}`;
  return !cr.title || cr.title === number ? number : `${number}: ${cr.title}`;
}
