/**
 * The admin every test app starts with (INIT_ADMIN_* of its configuration). Global setup
 * bootstraps a template with exactly these (test/helpers/global-setup.ts), so an app started
 * with them finds them in place and skips the password hash; this file imports nothing, so that
 * global setup can read it.
 */
export const ADMIN_TOKEN = "*:*.test-admin-secret-0123456789abcdef";
export const ADMIN_PASSWORD = "Admin-Password-1";
export const TEST_ADMIN_ENV = { INIT_ADMIN_API_TOKENS: ADMIN_TOKEN, INIT_ADMIN_PASSWORD: ADMIN_PASSWORD };
