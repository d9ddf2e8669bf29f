// Bundles a CLI entry (cli/main.ts by default, as scripts/build.js does) into a temp file so tests
// can run `voice ...` as a real process without depending on a prior `npm run build`.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Absolute path of a file under cli/, for entry sources that import it. */
export function cliFile(path: string): string {
  return join(here, '..', '..', path);
}

/** Bundles cli/main.ts, or the given entry source, to a temp `.mjs`; `dispose` removes it. */
export async function buildCli(entrySource?: string): Promise<{ file: string; dispose(): void }> {
  // Inside node_modules so the packages left external resolve exactly as they do for the real CLI.
  const cache = join(here, '..', '..', '..', 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'voice-visitor-cli-'));
  const entry = entrySource === undefined ? cliFile('main.ts') : join(dir, 'entry.ts');
  if (entrySource !== undefined) writeFileSync(entry, entrySource);
  await build({
    entryPoints: { voice: entry },
    outdir: join(dir, 'out'),
    outExtension: { '.js': '.mjs' },
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // As scripts/build.js: heavy, rarely used packages stay external (they resolve from node_modules).
    external: ['vite', '@vitejs/plugin-react', '@sentry/node', '@supabase/supabase-js', 'lightningcss', 'fsevents', 'react-devtools-core'],
    banner: { js: "import { createRequire as __voiceRequire } from 'node:module'; const require = __voiceRequire(import.meta.url);" },
    // core from its sources, as scripts/build.js bundles it.
    conditions: ['voice-source'],
    logLevel: 'error',
    define: { __VOICE_VERSION__: '"0.0.0-test"', 'process.env.NODE_ENV': '"production"' },
  });
  return { file: join(dir, 'out', 'voice.mjs'), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
