// Budget: `voice demo` warm <= 0.95x plain Vite (launch to page and module graph served). Measured
// gain: the module graph served 155 -> 85 ms after the HTML (median of 14 launches each,
// alternating; warm start 407 -> 333 ms, plain Vite 452 ms in the same run).
// In development Vite ends every JavaScript module it serves with an inline base64 source map: for
// an optimized dependency the map written beside it (react-dom's 0.9 MB bundle goes out as 3.1 MB),
// and for a module with no map of its own (Vite's client, React Refresh, daily-js) an identity map
// it generates again on every start. The page's own files keep theirs; modules from anywhere else
// are served without one:
// - an optimized dependency ends with a comment naming the map file beside it, which Vite serves
//   when DevTools asks (DevTools fetches source maps only while it is open): the same map, later;
// - any other module gets none. An identity map adds nothing, and Vite puts package sources on
//   DevTools' ignore list anyway.
import { basename } from 'node:path';
import type { Plugin } from 'vite';

/** Anything that marks the end of a module with a source map reference. */
const MAP_COMMENT = /\/\/[#@] sourceMappingURL=[^\n]*\s*$/;

/**
 * Serves modules from outside `ownDirs` without inline source maps (dev server only). `ownDirs` are
 * the folders of the page's own sources (absolute paths).
 */
export function packageMapsDev(ownDirs: string[]): Plugin {
  const own = ownDirs.map((dir) => dir.replaceAll('\\', '/').replace(/\/?$/, '/'));
  return {
    name: 'voice:package-maps-dev',
    apply: 'serve',
    transform(code, id) {
      const optimizer = 'depsOptimizer' in this.environment ? this.environment.depsOptimizer : undefined;
      // `{ mappings: '' }` says "no source map"; Vite takes a transform's map only when the code
      // changed, hence the comment or newline added.
      if (optimizer?.isOptimizedDepFile(id)) {
        const comment = MAP_COMMENT.test(code) ? '' : `//# sourceMappingURL=${basename(id.split('?')[0] as string)}.map\n`;
        return { code: `${code}\n${comment}`, map: { mappings: '' } };
      }
      if (own.some((dir) => id.startsWith(dir) && !id.includes('/node_modules/', dir.length))) return undefined;
      return { code: `${code}\n`, map: { mappings: '' } };
    },
  };
}
