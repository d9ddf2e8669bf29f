// Budget: Lighthouse mobile LCP <= 1.05x bare React. Measured gain: LCP 1.41 -> 1.25 s (0.80 to 0.90x).
// Re-measured 2026-11-26, two shared cores at load average 13 to 25 (cli/launch/README.md):
// demo-page LCP 0.99x, 0.96x with it, 1.14x, 1.00x without. Kept.
// The page's stylesheet written into index.html as a <style> element in a static build: it is
// small (under 1 KiB gzip), and a linked one is one more request before the first paint, on a
// connection of its own. Lighthouse mobile (simulated): FCP 1.29 -> 0.64 s, LCP 1.44 -> 1.27 s.
// `voice demo build` allows the element by its hash in the page's Content-Security-Policy.
import type { OutputAsset, OutputBundle } from 'rolldown';
import type { Plugin } from 'vite';

/** Stylesheets larger than this stay linked files (gzip would hide the HTML's growth anyway). */
export const INLINE_CSS_LIMIT = 8 * 1024;

const LINK = /<link\b[^>]*\brel="stylesheet"[^>]*>/gi;

function hrefOf(tag: string): string | undefined {
  return /\bhref="([^"]+)"/i.exec(tag)?.[1];
}

/** Replaces each small linked stylesheet of the bundle's HTML files with its text; drops files nothing else loads. */
export function inlineStylesheets(bundle: OutputBundle, base = '/'): void {
  const inlined = new Set<string>();
  for (const html of Object.values(bundle)) {
    if (html.type !== 'asset' || !html.fileName.endsWith('.html')) continue;
    html.source = String(html.source).replace(LINK, (tag) => {
      const href = hrefOf(tag);
      const fileName = href?.startsWith(base) ? href.slice(base.length) : undefined;
      const css = fileName ? bundle[fileName] : undefined;
      if (!css || css.type !== 'asset' || css.source.length > INLINE_CSS_LIMIT) return tag;
      inlined.add(css.fileName);
      // `</style` cannot occur in CSS Vite minified; guarded anyway so the element cannot end early.
      return `<style>${String((css as OutputAsset).source).replace(/<\/style/gi, '<\\/style')}</style>`;
    });
  }
  // The HTML loads an entry's CSS; a lazy chunk loads its own when it loads: keep any file one names.
  const stillLoaded = new Set(Object.values(bundle).flatMap((out) => (out.type === 'chunk' && !out.isEntry ? [...(out.viteMetadata?.importedCss ?? [])] : [])));
  for (const fileName of inlined) if (!stillLoaded.has(fileName)) delete bundle[fileName];
}

/** The build step: after Vite has written the HTML. */
export function inlineCss(): Plugin {
  let base = '/';
  return {
    name: 'voice-inline-css',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      base = config.base;
    },
    generateBundle(_options, bundle) {
      inlineStylesheets(bundle, base);
    },
  };
}
