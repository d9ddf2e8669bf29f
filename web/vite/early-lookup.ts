// Budget: Lighthouse mobile LCP <= 1.05x bare React. Measured gain: none under Lighthouse's simulated
// throttling; with applied throttling (562 ms round trips) LCP 2.27 -> 1.70 s.
// Starts the visitor lookup from the built page's HTML: src/visitor.ts (no imports but types) inlined as a
// classic script, run as the parser passes it, so the request travels while the page's module
// script downloads instead of after it has run. The page takes that request (takeEarlyLookup) or,
// without it (the dev server, another slug), makes its own. Lighthouse with applied throttling
// (562 ms round trips): the greeting's LCP 2.27 s -> 1.70 s. Lighthouse's default simulated
// throttling still puts the request after the script (1.41 s either way).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as RolldownUtils from 'rolldown/utils';
import type { Plugin } from 'vite';
import { CONFIG_GLOBAL } from 'voice-agent-core/visitors/page-config';
import { importFromVite } from './vite-bundler.js';

/** The inline script: the page's lookup module (`source`), minified, then its start with the injected configuration. */
export async function earlyLookupScript(source: string): Promise<string> {
  const SOURCE = source;
  const { transformSync, minifySync } = await importFromVite<typeof RolldownUtils>('rolldown/utils');
  const stripped = transformSync(SOURCE, readFileSync(SOURCE, 'utf8'), { lang: 'ts' });
  if (stripped.errors.length) throw new Error(`early lookup: ${stripped.errors[0]?.message ?? 'cannot transform'}`);
  // A classic script of its own scope; without its exports the minifier drops what the start does
  // not use (loadVisitor, takeEarlyLookup, ...).
  const code = `(() => {\n${stripped.code.replace(/^export /gm, '')}\nstartEarlyLookup(window.${CONFIG_GLOBAL}, window);\n})();\n`;
  const minified = minifySync('early-lookup.js', code, { compress: true, mangle: true, module: false });
  return minified.code.trim();
}

/** Injects the early lookup into the built page's head (a build only: the dev server has its own start). */
export function earlyLookup(): Plugin {
  let script: Promise<string> | undefined;
  // The page's root (web/), from the configuration: this plugin also runs bundled into the CLI.
  let root = '';
  return {
    name: 'voice-early-lookup',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        script ??= earlyLookupScript(join(root, 'src', 'visitor.ts'));
        const tag = `<script>${await script}</script>`;
        // Right after the charset: before the stylesheet (a script waits for the stylesheets above
        // it), after the configuration script the CLI puts first; run as the parser passes it.
        const charset = /<meta\s+charset[^>]*>/i.exec(html);
        if (!charset) return [{ tag: 'script', children: await script, injectTo: 'head-prepend' }];
        const at = charset.index + charset[0].length;
        return `${html.slice(0, at)}\n    ${tag}${html.slice(at)}`;
      },
    },
  };
}
