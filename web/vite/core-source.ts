// The page imports core's faces as `voice-agent-core/<face>`; Vite serves those modules from core's
// sources (the files core's package.json names for each face under the `voice-source` condition),
// in a checkout and in an installed CLI alike, which ships the sources the page needs. Its other
// core modules (`#core/<file>`, the root package.json's `imports`) Vite resolves by itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

type ExportTarget = string | { 'voice-source'?: string } | undefined;

/** Resolves `voice-agent-core/<entry>` to the source file core's exports name for it. */
export function coreSource(coreDir = fileURLToPath(new URL('../../core', import.meta.url))): Plugin {
  const exports = (JSON.parse(readFileSync(join(coreDir, 'package.json'), 'utf8')) as { exports: Record<string, ExportTarget> }).exports;
  return {
    name: 'voice-core-source',
    enforce: 'pre',
    resolveId(id) {
      if (!id.startsWith('voice-agent-core/')) return null;
      const target = exports[`./${id.slice('voice-agent-core/'.length)}`];
      const file = typeof target === 'string' ? target : target?.['voice-source'];
      if (!file) return null;
      return join(coreDir, file);
    },
  };
}
