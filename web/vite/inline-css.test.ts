// A static build writes the page's small stylesheet into its HTML; a lazy chunk's CSS and a large
// stylesheet stay files.
import type { OutputBundle } from 'rolldown';
import { describe, expect, it } from 'vitest';
import { INLINE_CSS_LIMIT, inlineStylesheets } from './inline-css.js';

const asset = (fileName: string, source: string) => ({ type: 'asset', fileName, source, name: undefined, names: [], originalFileName: null, originalFileNames: [], needsCodeReference: false });
const chunk = (fileName: string, isEntry: boolean, importedCss: string[]) => ({ type: 'chunk', fileName, isEntry, viteMetadata: { importedCss: new Set(importedCss), importedAssets: new Set() } });

function bundleOf(...outputs: { fileName: string }[]): OutputBundle {
  return Object.fromEntries(outputs.map((o) => [o.fileName, o])) as unknown as OutputBundle;
}

const html = (bundle: OutputBundle, name = 'index.html'): string => String((bundle[name] as { source: string }).source);

describe('inlineStylesheets', () => {
  it("writes the entry's stylesheet into the HTML and drops the file", () => {
    const bundle = bundleOf(
      asset('index.html', '<head><script type="module" crossorigin src="/assets/index-a.js"></script>\n<link rel="stylesheet" crossorigin href="/assets/index-a.css"></head>'),
      asset('assets/index-a.css', 'p{color:red}'),
      chunk('assets/index-a.js', true, ['assets/index-a.css']),
    );
    inlineStylesheets(bundle);
    expect(html(bundle)).toBe('<head><script type="module" crossorigin src="/assets/index-a.js"></script>\n<style>p{color:red}</style></head>');
    expect(Object.keys(bundle).sort()).toEqual(['assets/index-a.js', 'index.html']);
  });

  it("keeps a lazy chunk's stylesheet, a large one, and one under another base", () => {
    const big = `p{color:red}${' '.repeat(INLINE_CSS_LIMIT)}`;
    const bundle = bundleOf(
      asset('index.html', '<link rel="stylesheet" href="/demo/assets/a.css"><link rel="stylesheet" href="/demo/assets/big.css">'),
      asset('assets/a.css', 'a{}'),
      asset('assets/big.css', big),
      asset('assets/form.css', 'form{}'),
      chunk('assets/form.js', false, ['assets/form.css', 'assets/a.css']),
    );
    inlineStylesheets(bundle, '/demo/');
    expect(html(bundle)).toBe('<style>a{}</style><link rel="stylesheet" href="/demo/assets/big.css">');
    // a.css is inlined for the first paint and still loaded by the lazy chunk that imports it.
    expect(Object.keys(bundle).sort()).toEqual(['assets/a.css', 'assets/big.css', 'assets/form.css', 'assets/form.js', 'index.html']);
  });

  it('cannot let the CSS end the element early', () => {
    const bundle = bundleOf(asset('index.html', '<link rel="stylesheet" href="/a.css">'), asset('a.css', 'p::after{content:"</style><script>x</script>"}'));
    inlineStylesheets(bundle);
    expect(html(bundle)).not.toContain('</style><script>');
    expect(html(bundle).match(/<\/style>/g)).toHaveLength(1);
  });
});
