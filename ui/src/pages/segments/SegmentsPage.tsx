import { useState } from "react";
import { useMutation } from "urql";
import {
  ConstraintsEditor,
  type ConstraintValue,
  constraintInput,
  constraintValue,
} from "../../components/ConstraintsEditor.tsx";
import { ProjectOptions } from "../../components/choices.tsx";
import { CreateOrEditForm, Field, ProblemBanner, SelectField } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { DataTable, WideRow } from "../../components/table.tsx";
import { optionalText, submitWith, useCreateOrUpdate } from "../../lib/form-submit.ts";
import { graphql, type ResultOf } from "../../lib/graphql.ts";
import { useListPage, useOpenForm } from "../../lib/list-page.ts";

const SegmentList = graphql(`
  query SegmentList {
    segments {
      id databaseId name description project usedInFeatures usedInProjects
      constraints { contextName operator values value inverted caseInsensitive }
    }
    contextFields { name legalValues { value description } }
    projects { id databaseId name }
  }
`);

const CreateSegment = graphql(`
  mutation CreateSegment($input: SegmentInput!) { createSegment(input: $input) { id databaseId name } }
`);

const UpdateSegment = graphql(`
  mutation UpdateSegment($id: Int!, $input: SegmentInput!) {
    updateSegment(id: $id, input: $input) {
      id name description project
      constraints { contextName operator values value inverted caseInsensitive }
    }
  }
`);

const DeleteSegment = graphql(`
  mutation DeleteSegment($id: Int!) { deleteSegment(id: $id) }
`);

type Data = ResultOf<typeof SegmentList>;
type Segment = Data["segments"][number];

/** Segments: reusable constraint sets; create, edit, delete, and where each is used. */
export default function SegmentsPage() {
  const { result, data, reload, problem, confirmThen } = useListPage({ query: SegmentList });
  const forms = useOpenForm(reload);
  const [, remove] = useMutation(DeleteSegment);

  return (
    <>
      <PageTitle
        actions={
          forms.open !== "new" && (
            <button type="button" onClick={forms.openNew}>
              New segment
            </button>
          )
        }
      >
        Segments
      </PageTitle>
      {forms.open === "new" && data && <SegmentForm data={data} onDone={forms.closeNew} />}
      <ProblemBanner problem={problem} showFieldErrors />
      <Pending fetching={result.fetching && !data} error={result.error} />
      {data && data.segments.length === 0 && <p>No segments yet.</p>}
      {data && data.segments.length > 0 && (
        <DataTable columns={["Name", "Project", "Constraints", "Used in", "Actions"]}>
          {data.segments.map((segment) =>
            forms.open === segment.databaseId ? (
              <WideRow key={segment.id} columns={5}>
                <SegmentForm data={data} segment={segment} onDone={forms.close} />
              </WideRow>
            ) : (
              <tr key={segment.id}>
                <th scope="row">
                  {segment.name}
                  {segment.description && <p className="hint">{segment.description}</p>}
                </th>
                <td>{segment.project ?? "all projects"}</td>
                <td>
                  <ConstraintList constraints={segment.constraints} />
                </td>
                <td>
                  {segment.usedInFeatures} flags in {segment.usedInProjects} projects
                </td>
                <td className="row-actions">
                  <button type="button" className="secondary" onClick={() => forms.edit(segment.databaseId)}>
                    Edit {segment.name}
                  </button>
                  <button
                    type="button"
                    className="danger"
                    disabled={segment.usedInFeatures > 0}
                    title={
                      segment.usedInFeatures > 0 ? "Strategies use it: remove it from them first" : undefined
                    }
                    onClick={() =>
                      void confirmThen(`Delete segment ${segment.name}?`, () =>
                        remove({ id: segment.databaseId }),
                      )
                    }
                  >
                    Delete {segment.name}
                  </button>
                </td>
              </tr>
            ),
          )}
        </DataTable>
      )}
    </>
  );
}

function ConstraintList(props: { constraints: Segment["constraints"] }) {
  return (
    <ul className="plain-list">
      {props.constraints.map((c, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: constraints are positional
        <li key={i}>
          <code>
            {c.contextName} {c.inverted ? "NOT " : ""}
            {c.operator} {c.values.length > 0 ? c.values.join(", ") : c.value}
            {c.caseInsensitive ? " (case-insensitive)" : ""}
          </code>
        </li>
      ))}
    </ul>
  );
}

/** Creates a segment, or replaces `segment`'s content. */
function SegmentForm(props: { data: Data; segment?: Segment; onDone(saved: boolean): void }) {
  const existing = props.segment;
  const [constraints, setConstraints] = useState<ConstraintValue[]>(
    existing?.constraints.map(constraintValue) ?? [],
  );
  const { create, update, busy, problem } = useCreateOrUpdate(CreateSegment, UpdateSegment, existing);
  const submit = submitWith(
    (data) => {
      const input = {
        name: String(data.get("name")),
        description: optionalText(data, "description"),
        project: optionalText(data, "project"),
        constraints: constraints.map(constraintInput),
      };
      return existing ? update({ id: existing.databaseId, input }) : create({ input });
    },
    () => props.onDone(true),
  );
  const constraintMessage = problem
    ? ["contextName", "operator", "values", "value", "constraints"]
        .map((key) => problem.fields[key])
        .filter(Boolean)
        .join(" ")
    : "";
  return (
    <CreateOrEditForm
      noun="segment"
      editing={existing?.name}
      className="stacked-form"
      onSubmit={submit}
      busy={busy}
      problem={problem}
      onCancel={() => props.onDone(false)}
    >
      <Field
        label="Segment name"
        name="name"
        defaultValue={existing?.name ?? ""}
        required
        problem={problem}
      />
      <Field
        label="Description"
        name="description"
        defaultValue={existing?.description ?? ""}
        problem={problem}
      />
      <SelectField label="Project" name="project" defaultValue={existing?.project ?? ""} problem={problem}>
        <option value="">All projects (global)</option>
        <ProjectOptions projects={props.data.projects} />
      </SelectField>
      <fieldset>
        <legend>Constraints</legend>
        <ConstraintsEditor
          value={constraints}
          onChange={setConstraints}
          contextFields={props.data.contextFields}
          message={constraintMessage || undefined}
        />
      </fieldset>
    </CreateOrEditForm>
  );
}
