#!/usr/bin/env node
// The `voice` executable: a thin shim over the bundled CLI in dist/. The fast lane answers
// `--version` and plain catalogue reads without loading the full program; everything else
// (and anything unusual about a read) runs the full program.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('voice: the CLI is not built yet. Run `npm run build` (npm install does it for you).\n');
  process.exit(1);
}
const { runFast } = await import(new URL('../dist/cli/fast.js', import.meta.url).href);
if (!(await runFast(process.argv.slice(2)))) await import(entry.href);
