import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Passwords are hashed with scrypt (memory-hard, built into Node: no native addon to
 * install). Stored as `scrypt$N$r$p$salt$hash`, so a hash is checked with the parameters it
 * was made with, and the cost (N = 2^cost, VEXIL_PASSWORD_HASH_COST) can change: a login
 * with a hash of another cost rehashes the password (`needsRehash`).
 */
const R = 8;
const P = 1;
const KEYLEN = 64;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEYLEN, { N: n, r, p, maxmem: 256 * n * r }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string, cost: number): Promise<string> {
  const n = 2 ** cost;
  const salt = randomBytes(16);
  const key = await derive(password, salt, n, R, P);
  return `scrypt$${n}$${R}$${P}$${salt.toString("base64")}$${key.toString("base64")}`;
}

/** Hashes this process has checked: the scrypt work that logins (and their limits) cost. */
let checked = 0;

export function passwordsChecked(): number {
  return checked;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  checked += 1;
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const key = await derive(password, Buffer.from(salt, "base64"), Number(n), Number(r), Number(p));
  const expected = Buffer.from(hash, "base64");
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Whether `stored` was made with other parameters than new hashes get at `cost`. */
export function needsRehash(stored: string, cost: number): boolean {
  return !stored.startsWith(`scrypt$${2 ** cost}$${R}$${P}$`);
}

export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}
