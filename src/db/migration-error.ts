/** Raised when the database cannot be brought to the schema of this build; says what to do. */
export class MigrationError extends Error {}
