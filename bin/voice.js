#!/usr/bin/env node
// The `voice` executable: a thin shim over the bundled CLI in dist/. The fast lane
// (dist/cli/fast.cjs) answers `--version` and plain catalogue reads without loading the full
// program; everything else (and anything unusual about a read) runs the full program
// (dist/cli/main.js, an ES module). This file and the fast lane are CommonJS (bin/package.json):
// an ES module entry costs every launch the ES loader's setup, about 3% of `node -e 0`.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const dist = join(__dirname, '..', 'dist', 'cli');

function full() {
  const entry = join(dist, 'main.js');
  if (!existsSync(entry)) {
    process.stderr.write('voice: the CLI is not built yet. Run `npm run build` in the repository (npm start and npm test build it when the sources changed).\n');
    process.exit(1);
  }
  return import(pathToFileURL(entry).href);
}

// No file-system check on the way in: a dist/ without the fast lane (not built yet, or built
// before the lane existed) shows as a missing module, and the full program takes over.
let fast;
try {
  fast = require(join(dist, 'fast.cjs'));
} catch (error) {
  if (error.code !== 'MODULE_NOT_FOUND') throw error;
}
if (fast) fast.runFast(process.argv.slice(2)).then((handled) => (handled ? undefined : full()));
else full();
