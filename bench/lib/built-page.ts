// A page built by `vite build`: what loads initially (module scripts, module preloads, their
// static imports, stylesheets linked or written in) and what loads later (every other JS chunk), with gzip sizes.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { htmlAssets, staticImports, walkGraph } from './modgraph.js';
import { gzipBytes } from './size.js';

/** One built file with its gzip size. */
export interface BuiltFile {
  file: string;
  gzip: number;
}

/** The initial and lazy parts of a built page. */
export interface BuiltPage {
  initialJs: BuiltFile[];
  initialCss: BuiltFile[];
  lazyJs: BuiltFile[];
}

const ORIGIN = 'http://built.page/';

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Splits a `vite build` output directory into initial and lazy assets. */
export async function analyseBuild(outDir: string): Promise<BuiltPage> {
  const toFile = (url: string): string => join(outDir, decodeURIComponent(new URL(url).pathname));
  const sized = (file: string): BuiltFile => ({ file: relative(outDir, file), gzip: gzipBytes(readFileSync(file)) });
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const assets = htmlAssets(html, ORIGIN);
  const inlineRoots = assets.inline.flatMap((code) => staticImports(code).map((spec) => new URL(spec, ORIGIN).href));
  const roots = [...new Set([...assets.scripts, ...assets.preloads, ...inlineRoots])];
  const initial = await walkGraph(roots, async (url) => readFileSync(toFile(url), 'utf8'));
  const initialFiles = new Set(initial.map(toFile));
  const allJs = listFiles(outDir).filter((file) => file.endsWith('.js'));
  return {
    initialJs: [...initialFiles].map(sized),
    initialCss: [...assets.styles.map((url) => sized(toFile(url))), ...assets.inlineStyles.map((text, i) => ({ file: `index.html <style> ${i + 1}`, gzip: gzipBytes(text) }))],
    lazyJs: allJs.filter((file) => !initialFiles.has(file)).map(sized),
  };
}

/**
 * What loading one lazy chunk fetches: the chunk whose file name starts with `name-` and its
 * static imports, less what the page loaded initially. Undefined when no such chunk was built.
 */
export async function lazyLoad(outDir: string, page: BuiltPage, name: string): Promise<BuiltFile[] | undefined> {
  const entry = page.lazyJs.find((f) => f.file.split('/').pop()?.startsWith(`${name}-`));
  if (!entry) return undefined;
  const toFile = (url: string): string => join(outDir, decodeURIComponent(new URL(url).pathname));
  const graph = await walkGraph([new URL(entry.file, ORIGIN).href], async (url) => readFileSync(toFile(url), 'utf8'));
  const initial = new Set(page.initialJs.map((f) => f.file));
  return graph
    .map((url) => relative(outDir, toFile(url)))
    .filter((file) => !initial.has(file))
    .map((file) => ({ file, gzip: gzipBytes(readFileSync(join(outDir, file))) }));
}

/** Sum of gzip sizes in bytes. */
export function total(files: readonly BuiltFile[]): number {
  return files.reduce((sum, file) => sum + file.gzip, 0);
}
