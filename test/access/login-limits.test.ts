import { randomBytes } from "node:crypto";
import { request } from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { listen, type RunningServer } from "../../src/http-server.ts";
import { createLoginLimiter, type LoginLimitStore } from "../../src/modules/access/login-limits.cache.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";
import { readMetrics } from "../helpers/metrics.ts";
import { PASSWORD } from "../helpers/session.ts";

const PER_ACCOUNT = 5;
const PER_ADDRESS = 20;
let t: TestApp;
let server: RunningServer;
const extraNodes: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  t = await createTestApp({
    LOGIN_RATE_LIMIT_PER_MINUTE: String(PER_ACCOUNT),
    LOGIN_ADDRESS_RATE_LIMIT_PER_MINUTE: String(PER_ADDRESS),
  });
  server = await listen(t.app, "127.0.0.1", 0);
  for (const name of ["victim", "wanderer", "shared", "twin"]) await userWithPat(t, name, "Viewer");
});

afterAll(async () => {
  for (const node of extraNodes) await node.close();
  await server?.close(0);
  await t?.close();
});

type Answer = {
  status: number;
  retryAfter?: string;
  body: { id?: string; name?: string; username?: string };
};

/** POST /auth/simple/login over real HTTP from `localAddress` (any 127.x.y.z is this machine). */
function loginFrom(
  baseUrl: string,
  localAddress: string,
  username: string,
  password: string,
): Promise<Answer> {
  const body = JSON.stringify({ username, password });
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}/auth/simple/login`,
      {
        method: "POST",
        localAddress,
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers["retry-after"] as string | undefined,
            body: JSON.parse(text),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Password hashes this process has checked: which attempts reached the (slow) hash. */
const hashesChecked = async () => (await readMetrics(t))("vexil_password_checks_total");

const statuses = (answers: Answer[]) => answers.map((a) => a.status);
const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;

describe("password login throttling (over HTTP)", () => {
  it("50 concurrent wrong logins: at most the limit are checked, the rest are 429 before any hashing", async () => {
    const before = await hashesChecked();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => loginFrom(server.url, "127.0.0.1", "victim", "wrong-password")),
    );
    expect(count(answers, 401)).toBe(PER_ACCOUNT);
    expect(count(answers, 429)).toBe(50 - PER_ACCOUNT);
    expect((await hashesChecked()) - before).toBe(PER_ACCOUNT);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body.name).toBe("RateLimitError");
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    // The right password from the same address waits too (this address used up the account's limit).
    expect((await loginFrom(server.url, "127.0.0.1", "victim", PASSWORD)).status).toBe(429);
  });

  it("the right password from another address still logs in", async () => {
    const answer = await loginFrom(server.url, "127.0.0.2", "victim", PASSWORD);
    expect(answer.status).toBe(200);
    expect(answer.body.username).toBe("victim");
  });

  it("one address cannot try many accounts: per-address limit over all usernames", async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => loginFrom(server.url, "127.0.0.3", `nobody-${i}`, "guess")),
    );
    expect(count(answers, 401)).toBe(PER_ADDRESS);
    expect(count(answers, 429)).toBe(30 - PER_ADDRESS);
    // Another address is not affected.
    expect((await loginFrom(server.url, "127.0.0.4", "nobody-0", "guess")).status).toBe(401);
  });

  it("a username and its email share one count: alternating them is throttled like one name", async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 12; i++) {
      // A user and an address of its own: the cross-node tests below count "shared" in the same store.
      const login = i % 2 === 0 ? "twin" : "TWIN@example.com";
      answers.push(await loginFrom(server.url, "127.0.0.8", login, "wrong-password"));
    }
    expect(count(answers, 401)).toBe(PER_ACCOUNT);
    expect(count(answers, 429)).toBe(12 - PER_ACCOUNT);
  });

  it("an unknown username costs a password hash like a known one (no timing difference)", async () => {
    const before = await hashesChecked();
    const unknown = await loginFrom(server.url, "127.0.0.5", "no-such-user", "guess");
    const known = await loginFrom(server.url, "127.0.0.5", "wanderer", "guess");
    expect(statuses([unknown, known])).toEqual([401, 401]);
    expect(unknown.body).toEqual({ ...known.body, id: unknown.body.id });
    expect((await hashesChecked()) - before).toBe(2);
  });

  it("a successful login gives its attempt back: the address keeps its budget", async () => {
    for (let i = 0; i < PER_ADDRESS + 5; i++) {
      expect((await loginFrom(server.url, "127.0.0.6", "wanderer", PASSWORD)).status).toBe(200);
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("the limits hold across nodes", () => {
  const stores: [string, () => LoginLimitStore][] = [
    [
      "PostgreSQL",
      () => {
        const url = (t.database.pool as unknown as { options: { connectionString: string } }).options
          .connectionString;
        const pool = new pg.Pool({ connectionString: url, max: 4 });
        // As the app's own pool: an idle connection closed by the server (the test database is
        // dropped WITH FORCE at the end) must not become an uncaught error.
        pool.on("error", () => undefined);
        extraNodes.push({ close: () => pool.end() });
        return { kind: "postgres", pool };
      },
    ],
    ["Redis", () => ({ kind: "redis", url: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379" })],
  ];
  for (const [name, store] of stores) {
    it(`${name}: 50 concurrent wrong logins spread over two nodes pass the limit once`, async () => {
      const limits = { perAccountAndAddress: PER_ACCOUNT, perAddress: PER_ADDRESS };
      // Two nodes: each its own limiter (and connections), the same store.
      const nodes: RunningServer[] = [];
      for (let i = 0; i < 2; i++) {
        const loginLimiter = createLoginLimiter(store(), limits);
        const deps = { ...t.deps, loginLimiter };
        const app = createApp(deps);
        const node = await listen(app, "127.0.0.1", 0);
        nodes.push(node);
        extraNodes.push({
          async close() {
            await node.close(0);
            await app.close();
            await loginLimiter.close();
          },
        });
      }
      // Addresses not used above (counters in Redis outlive a test run by up to a minute).
      const address = `127.0.${1 + (randomBytes(1)[0]! % 200)}.${10 + (randomBytes(1)[0]! % 200)}`;
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          loginFrom(nodes[i % 2]!.url, address, "shared", "wrong-password"),
        ),
      );
      expect(count(answers, 401)).toBe(PER_ACCOUNT);
      expect(count(answers, 429)).toBe(50 - PER_ACCOUNT);
      expect((await loginFrom(nodes[1]!.url, "127.0.0.7", "shared", PASSWORD)).status).toBe(200);
    });
  }
});
