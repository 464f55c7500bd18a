import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DeliveryWorker, startDeliveryWorker } from "../../src/jobs/delivery-worker.ts";
import { createFlag } from "../helpers/builders.ts";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

/** A webhook receiver on a free local port, keeping the bodies it was sent. */
async function startReceiver() {
  const bodies: unknown[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let text = "";
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => {
      bodies.push(JSON.parse(text || "null"));
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!hasChromium)("web UI: administration (integrations, tokens, users)", () => {
  let ui: UiHarness;
  let admin: Page;
  let worker: DeliveryWorker;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    ui = await startUi();
    worker = startDeliveryWorker(ui.deps);
    receiver = await startReceiver();
    admin = await ui.signedIn();
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await ui?.close();
  });

  it("creates a webhook integration and shows its delivery log after a flag event", async () => {
    await admin.getByRole("link", { name: "Integrations" }).click();
    await admin.getByRole("button", { name: "New integration" }).click();
    await admin.getByLabel("Webhook URL (required)").fill(receiver.url);
    await admin.getByLabel("Description").fill("Flag events to the test receiver");
    await admin
      .getByRole("group", { name: "Events" })
      .getByRole("checkbox", { name: "feature-created" })
      .check();
    await admin.getByRole("button", { name: "Create integration" }).click();
    await admin.getByRole("heading", { name: /Integration webhook #\d+/ }).waitFor();
    const id = Number(new URL(admin.url()).pathname.split("/").pop());
    await admin.getByText("Nothing delivered yet.").waitFor();

    await createFlag(ui, "hooked");
    await expect.poll(() => receiver.bodies.length, { timeout: 15_000 }).toBe(1);

    await expect
      .poll(
        async () => {
          await admin.getByRole("button", { name: "Refresh log" }).click();
          return admin.getByRole("row", { name: /feature-created \(hooked\)/ }).count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    await expect
      .poll(() => admin.getByRole("row", { name: /feature-created/ }).textContent())
      .toMatch(/success/);

    // The stored URL is secret: the form shows it masked, and saving keeps it.
    await expect.poll(() => admin.getByLabel("Webhook URL (required)").inputValue()).toBe("*****");
    await admin.getByLabel("Description").fill("Renamed");
    await admin.getByRole("button", { name: "Save integration" }).click();
    await admin.getByText("Saved.").waitFor();

    await admin.getByRole("link", { name: "All integrations" }).click();
    // The users test may have made an integration of its own: this one's checkbox.
    const enabled = admin.getByRole("checkbox", { name: new RegExp(`^Enabled #${id}\\b`) });
    await enabled.uncheck();
    await expect
      .poll(async () => (await ui.gql<any>(`{ addon(id: ${id}) { enabled description } }`)).data?.addon)
      .toEqual({ enabled: false, description: "Renamed" });
    // Saving with the masked URL kept the stored one: enabled again, it still delivers.
    await enabled.check();
    await expect
      .poll(async () => (await ui.gql<any>(`{ addon(id: ${id}) { enabled } }`)).data?.addon.enabled)
      .toBe(true);
    await createFlag(ui, "hooked-again");
    await expect.poll(() => receiver.bodies.length, { timeout: 15_000 }).toBe(2);
  });

  it("creates an API token whose secret is shown once and works against the client API", async () => {
    await createFlag(ui, "token-reads");
    await admin.getByRole("link", { name: "API tokens" }).click();
    await admin.getByLabel("Token name").fill("backend-sdk");
    await admin.getByLabel("Token type").selectOption("client");
    await admin.getByLabel("Environment", { exact: true }).selectOption("development");
    await admin.getByRole("button", { name: "Create API token" }).click();
    const secretField = admin.getByLabel("Secret of backend-sdk");
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^\*:development\./);

    const response = await fetch(`${ui.url}/api/client/features`, { headers: { authorization: secret } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { features: { name: string }[] };
    expect(body.features.map((f) => f.name)).toContain("token-reads");

    await admin.getByRole("rowheader", { name: /backend-sdk/ }).waitFor();
    await admin.getByRole("button", { name: "I have copied it" }).click();
    await expect.poll(() => secretField.count()).toBe(0);
    await admin.reload();
    await admin.getByRole("rowheader", { name: /backend-sdk/ }).waitFor();
    expect(await admin.content()).not.toContain(secret);

    admin.once("dialog", (dialog) => void dialog.accept());
    await admin.getByRole("button", { name: "Delete backend-sdk" }).click();
    await expect.poll(() => admin.getByRole("rowheader", { name: /backend-sdk/ }).count()).toBe(0);
    const refused = await fetch(`${ui.url}/api/client/features`, { headers: { authorization: secret } });
    expect(refused.status).toBe(401);
  });

  it("creates a user, gives them the Editor root role, and keeps the users page from them", async () => {
    await admin.getByRole("link", { name: "Users" }).click();
    const form = admin.getByRole("form", { name: "New user" });
    await form.getByLabel("Name", { exact: true }).fill("Erin Editor");
    await form.getByLabel("Username").fill("erin");
    await form.getByLabel("Email").fill("erin@example.com");
    await form.getByLabel("Initial password (optional)").fill("weak");
    await form.getByRole("button", { name: "Create user" }).click();
    await expect
      .poll(() => form.getByLabel("Initial password (optional)").getAttribute("aria-invalid"))
      .toBe("true");
    await expect.poll(() => form.getByRole("alert").first().textContent()).toMatch(/at least 10 characters/);

    await form.getByLabel("Initial password (optional)").fill("Editor-Password-1");
    await form.getByRole("button", { name: "Create user" }).click();
    await admin.getByRole("rowheader", { name: /Erin Editor/ }).waitFor();
    await admin.getByRole("button", { name: "Edit Erin Editor" }).click();
    const edit = admin.getByRole("form", { name: "Edit user Erin Editor" });
    await edit.getByLabel("Root role").selectOption("Editor");
    await edit.getByRole("button", { name: "Save user" }).click();
    await expect
      .poll(async () => {
        const { data } = await ui.gql<any>(`{ users { username rootRole } }`);
        return data?.users.find((u: { username: string }) => u.username === "erin")?.rootRole;
      })
      .toBe("Editor");

    await admin.getByRole("button", { name: "Reset password of Erin Editor" }).click();
    await expect
      .poll(() => admin.getByLabel("Password reset link for Erin Editor").inputValue())
      .toMatch(/^http/);

    const editor = await ui.signedIn({ username: "erin", password: "Editor-Password-1" }, "/users");
    await editor.getByText("Admins only").waitFor();
    expect(
      await editor.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).count(),
    ).toBe(0);

    // The delivery log is for admins: the Editor sees the API's refusal, not an empty log.
    const addon = await ui.gql<any>(
      `mutation { createAddon(input: { provider: "webhook", enabled: false, events: ["feature-created"],
        parameters: { url: "http://127.0.0.1:9/hook" } }) { databaseId } }`,
    );
    expect(addon.errors).toBeUndefined();
    await editor.goto(`/integrations/${addon.data.createAddon.databaseId}`);
    await editor.getByRole("heading", { name: "Delivery log" }).waitFor();
    await expect
      .poll(() => editor.getByRole("alert").first().textContent())
      .toMatch(/permission|forbidden|denied/i);
    expect(ui.externalRequests).toEqual([]);
  });
});
