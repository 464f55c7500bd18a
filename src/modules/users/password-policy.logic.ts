import { ValidationError } from "../../shared/errors.ts";

/**
 * Password strength rules, after the OWASP rules Unleash applies: at least 10 characters,
 * with a lower-case letter, an upper-case letter, a digit and a symbol, and no run of three
 * identical characters.
 */
const RULES: [RegExp | ((p: string) => boolean), string][] = [
  [(p) => p.length >= 10, "The password must be at least 10 characters long."],
  [(p) => p.length <= 128, "The password must be fewer than 128 characters."],
  [/[a-z]/, "The password must contain at least one lowercase letter."],
  [/[A-Z]/, "The password must contain at least one uppercase letter."],
  [/[0-9]/, "The password must contain at least one number."],
  [/[^A-Za-z0-9]/, "The password must contain at least one special character."],
  [(p) => !/(.)\1\1/.test(p), "The password may not contain sequences of three or more repeated characters."],
];

/** Throws a ValidationError listing every rule the password breaks. */
export function assertStrongPassword(password: string): void {
  const failures = RULES.filter(([rule]) =>
    typeof rule === "function" ? !rule(password) : !rule.test(password),
  ).map(([, message]) => ({ message, path: "password" }));
  if (failures.length > 0) {
    throw new ValidationError(`password: ${failures.map((f) => f.message).join(" ")}`, failures);
  }
}
