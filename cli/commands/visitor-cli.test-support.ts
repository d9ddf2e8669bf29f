// Builds the real CLI entry (cli/main.ts, as scripts/build.js does) into a temp file so tests
// can run `voice visitor ...` as a process without depending on a prior `npm run build`.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const main = join(here, '..', 'main.ts');

// Until cli/main.ts registers `visitor`, a minimal entry with the same error mapping stands in.
const standIn = (dir: string): string => `
import { Command, CommanderError } from 'commander';
import { reportError } from ${JSON.stringify(join(dir, '..', 'fail.ts'))};
import { visitorCommand } from ${JSON.stringify(join(dir, 'visitor.ts'))};
const program = new Command('voice')
  .option('--json').option('-y, --yes').option('--no-input').option('--no-color').option('--verbose')
  .exitOverride().addCommand(visitorCommand());
for (const c of program.commands.flatMap((c) => [c, ...c.commands])) c.exitOverride();
try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exitCode = err.exitCode === 0 ? 0 : 2;
  else process.exitCode = reportError(err, false);
}
`;

/** Bundles the CLI to a temp `.mjs`; `dispose` removes it. */
export async function buildVisitorCli(): Promise<{ file: string; dispose(): void }> {
  // Inside node_modules so the packages left external resolve exactly as they do for the real CLI.
  const cache = join(here, '..', '..', 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'voice-visitor-cli-'));
  const wired = /visitorCommand/.test(readFileSync(main, 'utf8'));
  const entry = wired ? main : join(dir, 'stand-in.ts');
  if (!wired) writeFileSync(entry, standIn(here));
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
    logLevel: 'error',
    define: { __VOICE_VERSION__: '"0.0.0-test"', 'process.env.NODE_ENV': '"production"' },
  });
  return { file: join(dir, 'out', 'voice.mjs'), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
