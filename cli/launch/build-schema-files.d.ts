// Types of cli/launch/build-schema-files.js (plain JS so `node scripts/build.js` runs as is).

/** The files copied. */
export const SCHEMA_FILES: readonly string[];

/** Copies the schema files into dist/cli/schemas under `root`; returns the paths written. */
export function copySchemaFiles(root: string): string[];
