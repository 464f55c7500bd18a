import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { propose, setState } from "../change-requests/fixtures.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  configureChangeRequests,
  createFlag,
  gqlError,
  gqlOk,
  recorded,
  type TestUser,
  userWithPat,
} from "../helpers/builders.ts";
import { rollout } from "./fixtures.ts";

/**
 * Editing and deleting release templates (issue 41.2): a template is renamed and its milestones
 * changed, plans made from it keep theirs; an unused one is deleted, one in use is not.
 */
let t: TestApp;
let viewer: TestUser;
let author: TestUser;
let reviewer: TestUser;

const TWO_STEPS = {
  name: "two-steps",
  milestones: [
    { name: "10 %", strategies: [rollout(10)], afterSeconds: 600 },
    { name: "100 %", strategies: [rollout(100)] },
  ],
};
const TEMPLATE = `databaseId name description archivedAt milestones { databaseId name afterSeconds strategies { parameters } }`;
const CREATE = `mutation($input: ReleaseTemplateInput!) { createReleaseTemplate(input: $input) { ${TEMPLATE} } }`;
const UPDATE = `mutation($id: String!, $input: ReleaseTemplateInput!) { updateReleaseTemplate(id: $id, input: $input) { ${TEMPLATE} } }`;
const DELETE = `mutation($id: String!) { deleteReleaseTemplate(id: $id) { databaseId name } }`;
const APPLY = `mutation($f: String!, $tpl: String!) { applyReleaseTemplate(project: "default", feature: $f,
  environment: "development", template: $tpl, start: true) { milestones { name } } }`;

async function created(name: string) {
  return (await gqlOk(t, CREATE, { input: { ...TWO_STEPS, name } })).createReleaseTemplate;
}

beforeAll(async () => {
  t = await createTestApp();
  viewer = await userWithPat(t, "vera", "Viewer");
  author = await userWithPat(t, "author", "Editor");
  reviewer = await userWithPat(t, "reviewer", "Admin");
  await configureChangeRequests(t, "production", 1);
});
afterAll(() => t?.close());

describe("editing a template", () => {
  it("renames it and replaces its milestones (release-plan-template-updated, before and after); a plan made from it keeps its own", async () => {
    const template = await created("editable");
    await createFlag(t, "kept");
    await gqlOk(t, APPLY, { f: "kept", tpl: template.databaseId });
    const input = {
      name: "three-steps",
      description: "slower",
      milestones: [
        { name: "1 %", strategies: [rollout(1)], afterSeconds: 300 },
        { name: "50 %", strategies: [rollout(50)], afterSeconds: 300 },
        { name: "100 %", strategies: [rollout(100)] },
      ],
    };
    const { result, brief } = await recorded(t, () => gqlOk(t, UPDATE, { id: template.databaseId, input }));
    const updated = result.updateReleaseTemplate;
    expect(updated).toMatchObject({ name: "three-steps", description: "slower" });
    expect(updated.milestones.map((m: { name: string }) => m.name)).toEqual(["1 %", "50 %", "100 %"]);
    // A milestone keeps the id of the one at its position; the new third one gets its own.
    expect(updated.milestones[0].databaseId).toBe(template.milestones[0].databaseId);
    expect(updated.milestones[1].databaseId).toBe(template.milestones[1].databaseId);
    expect(brief).toMatchObject([
      {
        type: "release-plan-template-updated",
        data: { name: "three-steps", milestones: [{ name: "1 %" }, { name: "50 %" }, { name: "100 %" }] },
        preData: { name: "editable", milestones: [{ name: "10 %" }, { name: "100 %" }] },
      },
    ]);
    const plan = await gqlOk(
      t,
      `{ releasePlan(project: "default", feature: "kept", environment: "development") { name milestones { name } } }`,
    );
    expect(plan.releasePlan).toEqual({ name: "editable", milestones: [{ name: "10 %" }, { name: "100 %" }] });

    const again = await recorded(t, () => gqlOk(t, UPDATE, { id: template.databaseId, input }));
    expect(again.events).toEqual([]);
  });

  it("refuses an unknown template (404), a template without milestone or with a bad duration (400), a taken name (409), an archived one; nothing changes", async () => {
    const template = await created("strict");
    await created("taken");
    const cases: [string, unknown, string][] = [
      ["no-such-template", TWO_STEPS, "NOT_FOUND"],
      [template.databaseId, { name: "strict", milestones: [] }, "VALIDATION"],
      [
        template.databaseId,
        { ...TWO_STEPS, milestones: [{ ...TWO_STEPS.milestones[0], afterSeconds: 0 }] },
        "VALIDATION",
      ],
      [template.databaseId, { ...TWO_STEPS, name: "taken" }, "NAME_EXISTS"],
    ];
    for (const [id, input, code] of cases) {
      const { result, events } = await recorded(t, () => gqlError(t, UPDATE, { id, input }));
      expect(result.code, JSON.stringify(input)).toBe(code);
      expect(events).toEqual([]);
    }
    await gqlOk(t, `mutation($id: String!) { archiveReleaseTemplate(id: $id) { archivedAt } }`, {
      id: template.databaseId,
    });
    const archived = await gqlError(t, UPDATE, {
      id: template.databaseId,
      input: { ...TWO_STEPS, name: "x" },
    });
    expect(archived.code).toBe("INVALID_OPERATION");
    const stored = await t.database.prisma.releasePlanTemplate.findUniqueOrThrow({
      where: { id: template.databaseId },
    });
    expect(stored.name).toBe("strict");
  });

  it("a Viewer may neither edit nor delete one", async () => {
    const template = await created("guarded");
    expect(
      (await gqlError(t, UPDATE, { id: template.databaseId, input: TWO_STEPS }, viewer.token)).code,
    ).toBe("FORBIDDEN");
    expect((await gqlError(t, DELETE, { id: template.databaseId }, viewer.token)).code).toBe("FORBIDDEN");
  });
});

describe("deleting a template", () => {
  it("deletes an unused one (release-plan-template-deleted); it is gone from the list and plans cannot be made from it", async () => {
    const template = await created("unused");
    const { result, brief } = await recorded(t, () => gqlOk(t, DELETE, { id: template.databaseId }));
    expect(result.deleteReleaseTemplate).toEqual({ databaseId: template.databaseId, name: "unused" });
    expect(brief).toMatchObject([{ type: "release-plan-template-deleted", preData: { name: "unused" } }]);
    const listed = await gqlOk(t, `{ releaseTemplates(includeArchived: true) { name } }`);
    expect(listed.releaseTemplates.map((r: { name: string }) => r.name)).not.toContain("unused");
    await createFlag(t, "orphan");
    expect((await gqlError(t, APPLY, { f: "orphan", tpl: template.databaseId })).code).toBe("NOT_FOUND");
    expect((await gqlError(t, DELETE, { id: template.databaseId })).code).toBe("NOT_FOUND");
  });

  it("refuses one a plan was made from (409 naming the flag), archived or not", async () => {
    const template = await created("in-use");
    await createFlag(t, "user-of-it");
    await gqlOk(t, APPLY, { f: "user-of-it", tpl: template.databaseId });
    await gqlOk(t, `mutation($id: String!) { archiveReleaseTemplate(id: $id) { archivedAt } }`, {
      id: template.databaseId,
    });
    const { result, events } = await recorded(t, () => gqlError(t, DELETE, { id: template.databaseId }));
    expect(result.code).toBe("CONFLICT");
    expect(result.message).toContain("user-of-it (development)");
    expect(events).toEqual([]);
  });

  it("a pending addReleasePlan of a deleted template conflicts (409 on apply)", async () => {
    const template = await created("proposed-then-gone");
    await createFlag(t, "waiting");
    const change = {
      action: "addReleasePlan",
      feature: "waiting",
      payload: { templateId: template.databaseId },
    };
    const draft = await propose(t, "production", change, author.token);
    const id = draft.body.id as number;
    expect((await setState(t, id, { state: "In review" }, author.token)).status).toBe(200);
    expect((await setState(t, id, { state: "Approved" }, reviewer.token)).status).toBe(200);
    await gqlOk(t, DELETE, { id: template.databaseId });
    const applied = await setState(t, id, { state: "Applied" }, reviewer.token);
    expect(applied.status).toBe(409);
    expect(applied.body.details[0].message).toContain("has been deleted");
  });
});
