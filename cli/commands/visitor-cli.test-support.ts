// Builds the real CLI entry (cli/main.ts, as scripts/build.js does) into a temp file so tests
// can run `voice visitor ...` as a process without depending on a prior `npm run build`.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const main = join(here, '..', 'main.ts');

// Until cli/main.ts registers `visitor`, a minimal entry with the same error mapping stands in.
const standIn = `
import { Command, CommanderError } from 'commander';
import { CliError } from '../errors.js';
import { visitorCommand } from './visitor.js';
const program = new Command('voice').exitOverride().addCommand(visitorCommand());
try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CliError) {
    process.stderr.write(err.message + '\\n' + (err.hint ? err.hint + '\\n' : ''));
    process.exitCode = err.exitCode;
  } else if (err instanceof CommanderError) {
    process.exitCode = err.exitCode === 0 ? 0 : 2;
  } else throw err;
}
`;

/** Bundles the CLI to a temp `.mjs`; `dispose` removes it. */
export async function buildVisitorCli(): Promise<{ file: string; dispose(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'voice-visitor-build-'));
  const file = join(dir, 'voice.mjs');
  const wired = /visitorCommand/.test(readFileSync(main, 'utf8'));
  await build({
    ...(wired ? { entryPoints: [main] } : { stdin: { contents: standIn, resolveDir: here, loader: 'ts' } }),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: file,
    logLevel: 'silent',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
