// Where the built inspector page is, for the emulators the CLI starts (`voice dev`, `voice demo`).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built inspector page's folder (dist/inspector), from the bundled CLI, one of its chunks or the sources. */
export function inspectorDir(): string | undefined {
  for (const rel of ['../inspector/', '../../inspector/', '../dist/inspector/', '../../dist/inspector/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return undefined;
}
