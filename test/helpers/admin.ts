/**
 * The admin every test app starts with (INIT_ADMIN_* of its configuration). Global setup
 * bootstraps a template with exactly these (test/helpers/global-setup.ts), so an app started
 * with them finds them in place and skips the password hash; this file imports nothing, so that
 * global setup can read it.
 */
export const ADMIN_TOKEN = "*:*.test-admin-secret-0123456789abcdef";
export const ADMIN_PASSWORD = "Admin-Password-1";
/**
 * Tests hash passwords at the lowest cost the configuration accepts (2^10, 32 times cheaper
 * than the default 2^15): what a hash protects is not under test, and hashes were ~20 s of
 * the suite's CPU. test/access/password-hash-cost.test.ts tests the setting itself.
 */
export const TEST_PASSWORD_HASH_COST = "10";
export const TEST_ADMIN_ENV = {
  INIT_ADMIN_API_TOKENS: ADMIN_TOKEN,
  INIT_ADMIN_PASSWORD: ADMIN_PASSWORD,
  VEXIL_PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
};
