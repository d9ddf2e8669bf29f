// Budget: `voice assistant list` on a terminal (Ink table) <= 2.5x `node -e 0`. Measured gain: the emoji
// regex (181 M instructions) and the first Intl.Segmenter (92 M) deferred; with the Ink code cache 3.04x -> 2.10x.
// esbuild plugin for the CLI bundle: Ink's text helpers create an Intl.Segmenter and Unicode
// property regexes when their modules load, which costs more CPU than starting Node itself (see
// cli/launch/lazy-unicode.ts). This swaps those constructions for the lazy stand-ins of that module, in
// the listed packages only. Nothing else in their code changes.
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The packages patched (their .js files under node_modules, nested copies included). */
const PACKAGES = ['string-width', 'slice-ansi', '@alcalzone/ansi-tokenize'];

/** Regex literals compiled at load that are costly and rarely needed (only the emoji set is). */
const COSTLY_LITERALS = [{ literal: '/^\\p{RGI_Emoji}$/v', source: '^\\p{RGI_Emoji}$', flags: 'v' }];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const FILTER = new RegExp(`[\\\\/]node_modules[\\\\/](${PACKAGES.map((p) => escape(p).replace('\\/', '[\\\\/]')).join('|')})[\\\\/].*\\.js$`);

/** string-width's entry: its default export gets the narrow-text shortcut (lazy-unicode.ts `narrowWidth`). */
const STRING_WIDTH = 'export default function stringWidth(';

/** Rewrites one module's source; returns undefined when it creates nothing costly. */
export function lazyUnicodeSource(text) {
  let out = text.replaceAll('new Intl.Segmenter(', '__voiceLazySegmenter(');
  for (const { literal, source, flags } of COSTLY_LITERALS) out = out.replaceAll(literal, `__voiceLazyRegExp(${JSON.stringify(source)}, ${JSON.stringify(flags)})`);
  if (out.includes(STRING_WIDTH) && /^import stripAnsi from 'strip-ansi';$/m.test(out))
    out = `${out.replace(STRING_WIDTH, 'function stringWidth(')}\nexport default __voiceNarrowWidth(stringWidth, stripAnsi);\n`;
  return out === text ? undefined : out;
}

/** The plugin; `helper` is the absolute path of cli/launch/lazy-unicode.ts. */
export function lazyUnicode(helper) {
  return {
    name: 'lazy-unicode',
    setup(build) {
      const patched = new Set();
      build.onStart(() => patched.clear());
      build.onLoad({ filter: FILTER }, async (args) => {
        const out = lazyUnicodeSource(await readFile(args.path, 'utf8'));
        if (out === undefined) return undefined;
        patched.add(args.path);
        const header = `import { lazySegmenter as __voiceLazySegmenter, lazyRegExp as __voiceLazyRegExp, narrowWidth as __voiceNarrowWidth } from ${JSON.stringify(helper)};\n`;
        return { contents: header + out, loader: 'js', resolveDir: dirname(args.path) };
      });
      // A new version of Ink or of these packages may move the constructions elsewhere: say so,
      // since tables still draw the same, only slower.
      build.onEnd((result) => {
        const inputs = Object.keys(result.metafile?.inputs ?? {});
        const used = inputs.some((f) => /node_modules[\\/]ink[\\/]/.test(f));
        if (used && patched.size === 0)
          result.warnings.push({
            text: "lazy-unicode: no Intl.Segmenter found to defer in Ink's text helpers; see cli/launch/build-lazy-unicode.js",
            location: null,
            notes: [],
            id: '',
            pluginName: 'lazy-unicode',
            detail: undefined,
          });
      });
    },
  };
}
