// Budget: `voice apply` of 200 resources <= 0.4x the server SDK's one-by-one creates. Copies the
// derived schema files next to the bundled CLI (dist/cli/schemas), where core/schemas/data.ts reads
// them as bytes and parses each entry on first use instead of loading them as modules; the gain
// measured with that reader is in cli/launch/README.md.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The files copied. */
export const SCHEMA_FILES = ['components.json', 'operations.json'];

/** Copies the schema files into dist/cli/schemas under `root`; returns the paths written. */
export function copySchemaFiles(root) {
  const dir = join(root, 'dist', 'cli', 'schemas');
  mkdirSync(dir, { recursive: true });
  return SCHEMA_FILES.map((name) => {
    const to = join(dir, name);
    copyFileSync(join(root, 'core', 'schemas', name), to);
    return to;
  });
}
