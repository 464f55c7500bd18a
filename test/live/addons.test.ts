import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { apiToken } from "../helpers/builders.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const webhook = {
  provider: "webhook",
  description: "ops hook",
  parameters: { url: "http://127.0.0.1:9/hook", authorization: "Bearer s3cret", contentType: "text/plain" },
  events: ["feature-created", "feature-archived"],
  projects: ["default"],
  environments: [],
  unknownKey: "stripped",
};

/** An addon of a test's own (the webhook above); returns its id. */
async function createdAddon(): Promise<number> {
  const res = await t.rest("POST", "/api/admin/addons", webhook);
  expect(res.status).toBe(201);
  return res.body.id;
}

/** The event of this type about addon `id` (in its data or preData). */
async function addonEvent(type: string, id: number) {
  const events = await t.database.prisma.event.findMany({ where: { type }, orderBy: { id: "asc" } });
  const event = events.find((e) => [e.data, e.preData].some((d) => (d as { id?: number } | null)?.id === id));
  if (!event) throw new Error(`no ${type} event for addon ${id}`);
  return event;
}

describe("addons over REST", () => {
  it("creates an addon (201, as the running Unleash), masks sensitive parameters and records addon-config-created without parameters", async () => {
    const res = await t.rest("POST", "/api/admin/addons", webhook);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      provider: "webhook",
      description: "ops hook",
      enabled: true,
      parameters: { url: "*****", authorization: "*****", contentType: "text/plain" },
      events: ["feature-created", "feature-archived"],
      projects: ["default"],
      environments: [],
    });
    const id = res.body.id;
    const stored = await t.database.prisma.addon.findUniqueOrThrow({ where: { id } });
    expect(stored.parameters).toEqual(webhook.parameters);
    const event = await addonEvent("addon-config-created", id);
    expect(event.data).toMatchObject({ id, provider: "webhook", events: webhook.events });
    expect(event.data).not.toHaveProperty("parameters");
  });

  it("lists addons with the provider definitions", async () => {
    const id = await createdAddon();
    const res = await t.rest("GET", "/api/admin/addons");
    expect(res.status).toBe(200);
    expect(res.body.addons.filter((a: { id: number }) => a.id === id)).toEqual([
      expect.objectContaining({ id, parameters: expect.objectContaining({ url: "*****" }) }),
    ]);
    const provider = res.body.providers.find((p: { name: string }) => p.name === "webhook");
    expect(provider.parameters.map((p: { name: string }) => p.name)).toEqual([
      "url",
      "contentType",
      "authorization",
      "customHeaders",
      "bodyTemplate",
    ]);
    expect(provider.parameters[0]).toMatchObject({ required: true, sensitive: true, type: "url" });
    expect(provider.events).toContain("feature-environment-enabled");
  });

  it("gets one addon (spec 4.11) and answers 404 for an unknown id", async () => {
    const id = await createdAddon();
    expect((await t.rest("GET", `/api/admin/addons/${id}`)).body).toMatchObject({ id, provider: "webhook" });
    const missing = await t.rest("GET", "/api/admin/addons/9999");
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe("NotFoundError");
  });

  it("keeps a stored secret when the masked value comes back on update, replaces it when a new one is sent", async () => {
    const id = await createdAddon();
    const shown = (await t.rest("GET", `/api/admin/addons/${id}`)).body;
    const res = await t.rest("PUT", `/api/admin/addons/${id}`, {
      ...shown,
      description: "renamed",
      parameters: { ...shown.parameters, authorization: "Bearer rotated" },
    });
    expect(res.status).toBe(200);
    expect(res.body.description).toBe("renamed");
    const stored = await t.database.prisma.addon.findUniqueOrThrow({ where: { id } });
    expect(stored.parameters).toEqual({ ...webhook.parameters, authorization: "Bearer rotated" });
    const event = await addonEvent("addon-config-updated", id);
    expect(event.data).toMatchObject({ description: "renamed" });
    expect(event.preData).toMatchObject({ description: "ops hook" });
    expect(JSON.stringify([event.data, event.preData])).not.toContain("rotated");
  });

  it("refuses bad configurations with 400 naming the problem", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...webhook, provider: "carrier-pigeon" }, /provider/],
      [{ ...webhook, parameters: {} }, /Missing required parameters: url/],
      [{ ...webhook, parameters: { url: "ftp://example.com/x" } }, /http or https/],
      [
        { ...webhook, parameters: { url: "http://169.254.169.254/latest/meta-data" } },
        /link-local or metadata/,
      ],
      [{ ...webhook, parameters: { url: "http://[fd00:ec2::254]/" } }, /link-local or metadata/],
      [{ ...webhook, parameters: { url: "http://x.test", nope: "1" } }, /unknown parameters/],
      [{ ...webhook, events: ["not-an-event"] }, /events/],
    ];
    for (const [body, message] of cases) {
      const res = await t.rest("POST", "/api/admin/addons", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
  });

  it("requires CREATE_ADDON to create and ADMIN to read the delivery log", async () => {
    const id = await createdAddon();
    const token = await apiToken(t, "client", "development", ["default"]);
    expect((await t.rest("POST", "/api/admin/addons", webhook, token)).status).toBe(403);
    expect((await t.rest("GET", `/api/admin/addons/${id}/events`, undefined, token)).status).toBe(403);
    expect((await t.rest("POST", "/api/admin/addons", webhook, null)).status).toBe(401);
  });

  it("deletes an addon and records addon-config-deleted", async () => {
    const id = await createdAddon();
    const deleted = await t.rest("DELETE", `/api/admin/addons/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toBeUndefined();
    expect((await t.rest("GET", `/api/admin/addons/${id}`)).status).toBe(404);
    const event = await addonEvent("addon-config-deleted", id);
    expect(event.preData).toMatchObject({ id, description: "ops hook" });
    expect((await t.rest("DELETE", `/api/admin/addons/${id}`)).status).toBe(404);
  });
});

describe("addons over GraphQL", () => {
  it("creates, reads masked and lists providers", async () => {
    const res = await t.gql<{ createAddon: { id: number; parameters: Record<string, unknown> } }>(
      `mutation($input: AddonInput!) { createAddon(input: $input) { id parameters } }`,
      {
        input: {
          provider: "webhook",
          parameters: { url: "https://hooks.example.com/x" },
          events: ["feature-created"],
        },
      },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.createAddon.parameters).toEqual({ url: "*****" });
    const providers = await t.gql<{ addonProviders: { name: string }[] }>(`{ addonProviders { name } }`);
    expect(providers.data?.addonProviders.map((p) => p.name)).toEqual([
      "webhook",
      "slack-app",
      "teamsworkflow",
      "datadog",
      "new-relic",
    ]);
  });
});
