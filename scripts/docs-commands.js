#!/usr/bin/env node
// `npm run docs:commands`: writes docs/commands.md from the catalogue and the program
// (cli/reference.ts, bundled for Node on the fly as the tests bundle the CLI).
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(root, 'node_modules', '.cache', 'voice-docs-commands-'));
try {
  const outfile = join(dir, 'reference.mjs');
  await build({
    absWorkingDir: root,
    entryPoints: ['cli/reference.ts'],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['voice-source'],
    // Installed packages stay imports; core (its faces and the #core/ files) is bundled from its sources.
    plugins: [{ name: 'packages-external', setup: (b) => b.onResolve({ filter: /^[^./#]/ }, (a) => (a.path.startsWith('voice-agent-core/') ? undefined : { path: a.path, external: true })) }],
    define: { __VOICE_VERSION__: '"0.0.0-docs"' },
    banner: { js: "import { createRequire as __voiceRequire } from 'node:module'; const require = __voiceRequire(import.meta.url);" },
    logLevel: 'error',
  });
  const { commandReference } = await import(pathToFileURL(outfile).href);
  writeFileSync(join(root, 'docs', 'commands.md'), await commandReference());
  process.stderr.write('wrote docs/commands.md\n');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
