#!/usr/bin/env node
// The `voice` executable: a thin shim over the bundled CLI in dist/.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('voice: the CLI is not built yet. Run `npm run build` (npm install does it for you).\n');
  process.exit(1);
}
await import(entry.href);
