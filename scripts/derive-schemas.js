#!/usr/bin/env node
// Derives the compact schema set in core/schemas/ from the platform's published OpenAPI document:
// facts only (property names, types, required, enums, formats, limits, unions, refs), no prose.
// Re-runnable and deterministic (sorted keys):
//   node scripts/derive-schemas.js [path/to/openapi.json]     (or VOICE_OPENAPI=path)
// Default input: ../shared/reference/openapi-merged.json relative to the repository root.
// The product and its tests read only the output, never the reference document.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { derive, serialise } from './derive-schemas-lib.js';
import { fieldsModule, requestFields } from './derive-fields-lib.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const input = resolve(root, process.argv[2] ?? process.env.VOICE_OPENAPI ?? '../shared/reference/openapi-merged.json');
const outDir = join(root, 'core/schemas');
const { components, operations, messages } = derive(JSON.parse(readFileSync(input, 'utf8')));

mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'components.json'), serialise(components));
writeFileSync(join(outDir, 'operations.json'), serialise(operations));
writeFileSync(join(outDir, 'messages.json'), serialise(messages));
writeFileSync(join(root, 'core/catalogue/published-fields.ts'), fieldsModule(requestFields(operations, components)));
process.stderr.write(
  `derived ${Object.keys(operations).length} operations, ${Object.keys(messages.messages).length} server message types, ` + `${Object.keys(components).length} components into core/schemas/\n`,
);
