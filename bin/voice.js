#!/usr/bin/env node
// The `voice` executable: a thin shim over the bundled CLI in dist/. The fast lane (dist/cli/fast.js)
// answers `--version` and plain catalogue reads without loading the full program; everything
// else (and anything unusual about a read) runs the full program (dist/cli/main.js).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/main.js', import.meta.url);
const fast = new URL('../dist/cli/fast.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('voice: the CLI is not built yet. Run `npm run build` (npm install does it for you).\n');
  process.exit(1);
}
// A dist/ built before the fast lane existed has main.js alone.
const handled = existsSync(fileURLToPath(fast)) && (await (await import(fast.href)).runFast(process.argv.slice(2)));
if (!handled) await import(entry.href);
