// Where the demo's files are: the installed package's root (web/ and fixtures/), the visitors
// file to serve, and the files under web/ the page never loads (left unwatched).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError } from '../../errors.js';

/** The installed package's root (holds web/ and fixtures/), from source or from dist/. */
export function packageRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'web', 'index.html')) && existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new CliError('Cannot find the demo page (web/index.html) next to the voice package.');
  }
}

/** The visitors file to serve: --visitors (or VOICE_VISITORS_FILE), else ./visitors.json, else the bundled sample. */
export function visitorsFile(flag: string | undefined, cwd: string, root: string): string {
  if (flag) return resolve(cwd, flag);
  const local = join(cwd, 'visitors.json');
  return existsSync(local) ? local : join(root, 'fixtures', 'visitors.json');
}

/** Files under web/ the demo page never loads: the inspector's app, tests, scripts, the Vite plugins (web/vite/). */
export function watchIgnored(web: string): RegExp {
  const escaped = web.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`^${escaped}[\\\\/](e2e|inspector|scripts|vite)([\\\\/]|$)|\\.test\\.tsx?$`);
}
