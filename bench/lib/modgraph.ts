// The initial module graph of a page, found the way a browser finds it: module scripts and
// preloads in the HTML, then every static `import`/`export from` of each module, recursively.
// Dynamic `import()` is left out: those modules load later, on demand.
import { init, parse } from 'es-module-lexer';

// The lexer Vite itself scans imports with: a whole AST of react-dom's 3 MB client (Vite's
// parseAst) took 100 to 130 ms of the bench's CPU on every launch measured, in the middle of the
// graph (its imports are found only after it), as much for plain Vite as for ours; this takes 3 ms.
await init;

/** What an HTML document asks for before any script runs. */
export interface HtmlAssets {
  /** `<script type="module" src>` URLs. */
  scripts: string[];
  /** Bodies of inline `<script type="module">`. */
  inline: string[];
  /** `<link rel="modulepreload">` URLs. */
  preloads: string[];
  /** `<link rel="stylesheet">` URLs. */
  styles: string[];
  /** Texts of `<style>` elements (a build may write the page's CSS into its HTML). */
  inlineStyles: string[];
}

function attr(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

/** Reads the module scripts, inline module scripts, module preloads and stylesheets (linked or inline) of an HTML page. */
export function htmlAssets(html: string, base: string): HtmlAssets {
  const out: HtmlAssets = { scripts: [], inline: [], preloads: [], styles: [], inlineStyles: [] };
  const abs = (href: string): string => new URL(href, base).href;
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const open = match[1] ?? '';
    if ((attr(open, 'type') ?? '').toLowerCase() !== 'module') continue;
    const src = attr(open, 'src');
    if (src) out.scripts.push(abs(src));
    else out.inline.push(match[2] ?? '');
  }
  for (const match of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) out.inlineStyles.push(match[1] ?? '');
  for (const match of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = (attr(match[0], 'rel') ?? '').toLowerCase().split(/\s+/);
    const href = attr(match[0], 'href');
    if (!href) continue;
    if (rel.includes('modulepreload')) out.preloads.push(abs(href));
    else if (rel.includes('stylesheet')) out.styles.push(abs(href));
  }
  return out;
}

/** The specifiers a module imports statically (import declarations and re-exports). */
export function staticImports(code: string): string[] {
  const [imports] = parse(code);
  const out: string[] = [];
  for (const i of imports) if (i.type !== 'dynamic' && i.type !== 'import-meta' && !i.typeOnly && typeof i.specifier === 'string') out.push(i.specifier);
  return out;
}

/** Resolves an import specifier against the importing module's URL (bare names are unresolvable in a browser). */
export function resolveImport(specifier: string, from: string): string | undefined {
  if (/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:)/i.test(specifier)) return new URL(specifier, from).href;
  return undefined;
}

/**
 * Walks a module graph from its roots with at most `parallel` loads in flight (a browser's six
 * connections per host over HTTP/1.1). `load` returns a module's code; the result is every URL
 * loaded, in the order first seen.
 */
export async function walkGraph(roots: string[], load: (url: string) => Promise<string>, parallel = 6, limit = 5000): Promise<string[]> {
  const seen = new Set<string>(roots);
  const queue = [...roots];
  let active = 0;
  let failure: unknown;
  await new Promise<void>((resolve) => {
    const pump = (): void => {
      if (failure !== undefined || (queue.length === 0 && active === 0)) return resolve();
      while (active < parallel && queue.length) {
        const url = queue.shift() as string;
        active++;
        load(url)
          .then((code) => {
            for (const spec of staticImports(code)) {
              const next = resolveImport(spec, url);
              if (!next || seen.has(next)) continue;
              if (seen.size >= limit) throw new Error(`module graph larger than ${limit} modules`);
              seen.add(next);
              queue.push(next);
            }
          })
          .catch((error: unknown) => {
            failure = error;
          })
          .finally(() => {
            active--;
            pump();
          });
      }
    };
    pump();
  });
  if (failure !== undefined) throw failure;
  return [...seen];
}
