import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, gqlOk } from "../helpers/builders.ts";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

/**
 * A user's own account in the browser (issue 40.3): the profile page and its password change,
 * and the pages an invite link and a password-reset link lead to, with or without a session.
 */
describe.skipIf(!hasChromium)("web UI: accounts", () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui?.close());

  /** The path and query of a link the server built (its host is the server's public URL). */
  const pathOf = (url: string) => {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  };

  it("the profile shows who you are; changing the password ends the session and the new one logs in", async () => {
    await createUser(ui, "paula", "Editor", { email: "paula@example.com", password: "Paula-Password-1" });
    const page = await ui.signedIn({ username: "paula", password: "Paula-Password-1" });
    await page.getByRole("link", { name: /Your profile/ }).click();
    await page.getByRole("heading", { level: 1, name: "Your profile" }).waitFor();
    await page.getByText("paula@example.com").waitFor();
    await page.getByText("Editor", { exact: true }).waitFor();

    const form = page.getByRole("form", { name: "Change password" });
    await form.getByLabel("Current password").fill("wrong-Password-1");
    await form.getByLabel("New password", { exact: true }).fill("Paula-Password-2");
    await form.getByLabel("New password again").fill("Paula-Password-2");
    await form.getByRole("button", { name: "Change password" }).click();
    // Shown next to the field; a wrong password is not a lost session.
    const current = form.getByLabel("Current password");
    await expect.poll(() => current.getAttribute("aria-invalid")).toBe("true");

    await form.getByLabel("Current password").fill("Paula-Password-1");
    await form.getByLabel("New password", { exact: true }).fill("Paula-Password-2");
    await form.getByLabel("New password again").fill("Paula-Password-2");
    await form.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("status").filter({ hasText: "Your password is changed" }).waitFor();

    const again = await ui.signedIn({ username: "paula", password: "Paula-Password-2" }, "/profile");
    await again.getByRole("heading", { level: 1, name: "Your profile" }).waitFor();
  });

  it("an invite link opens a sign-up page, also while someone is signed in; the new user logs in", async () => {
    const { createPublicSignupToken } = await gqlOk<{ createPublicSignupToken: { url: string } }>(
      ui,
      `mutation($input: CreatePublicSignupTokenInput!) { createPublicSignupToken(input: $input) { url } }`,
      { input: { name: "team", expiresAt: new Date(Date.now() + 86_400_000).toISOString() } },
    );
    const path = pathOf(createPublicSignupToken.url);
    expect(path).toMatch(/^\/new-user\?invite=/);

    const signedIn = await ui.signedIn();
    await signedIn.goto(path);
    await signedIn.getByRole("heading", { level: 1, name: "Join Vexil" }).waitFor();

    const page = await ui.page(path);
    await page.getByLabel("Name", { exact: true }).fill("Ivy Invited");
    await page.getByLabel("Email", { exact: true }).fill("ivy@example.com");
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toMatch(/password/i);
    await page.getByLabel("Password", { exact: true }).fill("Ivy-Password-1");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("status").filter({ hasText: "Your account is ready" }).waitFor();

    const ivy = await ui.signedIn({ username: "ivy@example.com", password: "Ivy-Password-1" }, "/profile");
    await ivy.getByRole("definition").filter({ hasText: "ivy@example.com" }).waitFor();

    const unusable = await ui.page("/new-user?invite=not-a-real-secret");
    await unusable.getByText(/This link cannot be used/).waitFor();
  });

  it("a password-reset link sets a new password once", async () => {
    await createUser(ui, "rita", "Viewer", { email: "rita@example.com", password: "Rita-Password-1" });
    const { createResetPasswordLink } = await gqlOk<{
      createResetPasswordLink: { resetPasswordUrl: string };
    }>(ui, `mutation { createResetPasswordLink(email: "rita@example.com") { resetPasswordUrl } }`);
    const path = pathOf(createResetPasswordLink.resetPasswordUrl);
    expect(path).toMatch(/^\/reset-password\?token=/);

    const page = await ui.page(path);
    await page.getByLabel("New password", { exact: true }).fill("Rita-Password-2");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByRole("status").filter({ hasText: "Your password is set" }).waitFor();

    const rita = await ui.signedIn({ username: "rita", password: "Rita-Password-2" }, "/profile");
    await rita.getByRole("heading", { level: 1, name: "Your profile" }).waitFor();
    // The link is used up.
    const reused = await ui.page(path);
    await reused.getByText(/This link cannot be used/).waitFor();
  });
});
