// `voice demo build` as a function: a static build of web/ with the page configuration baked
// into index.html (the same inline script `voice demo` injects), plus the fallbacks that make
// client-side routing work for any slug on a static host. Loaded only when the command runs.
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import type { Plugin } from 'vite';
import { configScript } from '#core/visitors/page-config';
import type { DemoConfig } from '#core/visitors/page-config';
import { coreSource } from '../../../web/vite/core-source.js';
import { PAGE_BUILD, pageBuildPlugins } from '../../../web/vite/page-build.js';
import { asProduction } from '../../../web/vite/production.js';
import { DEFAULT_SELLER, withFavicon } from '#core/visitors/seller';
import { usageError } from '../../errors.js';
import { hostHeaderFiles, inlineScriptHashes, inlineStyleHashes, pageHeaders } from './headers.js';
import { packageRoot } from './files.js';

/** The default output directory, relative to the current directory. */
export const DEFAULT_OUT_DIR = 'dist/demo';

/** Files written beside the build so hosts route every path to the page. */
export const HOST_FILES = {
  /** Netlify (and Cloudflare Pages): serve index.html for any path that is not a file. */
  _redirects: '/* /index.html 200\n',
} as const;

/** Vercel: files first, then every other path to index.html. */
export const VERCEL_REWRITES = [{ source: '/(.*)', destination: '/index.html' }];

/**
 * The host configuration files that carry the page's security headers (CSP with the hashes of the
 * built page's inline scripts, frame-ancestors, Referrer-Policy, nosniff): `_headers` (Netlify,
 * Cloudflare Pages), `netlify.toml`, and `vercel.json` (with the rewrites).
 */
export function securityHostFiles(page: DemoConfig, html: string): Record<string, string> {
  const headers = pageHeaders(page, { hashes: inlineScriptHashes(html), styles: inlineStyleHashes(html) });
  const files = hostHeaderFiles(headers);
  return {
    _headers: files._headers,
    'netlify.toml': files['netlify.toml'],
    'vercel.json': `${JSON.stringify({ rewrites: VERCEL_REWRITES, headers: files.vercelHeaders }, null, 2)}\n`,
  };
}

/** What the build needs: where to write, what the page is configured with, and the secrets it must never contain. */
export interface DemoBuildOptions {
  outDir: string;
  page: DemoConfig;
  /** Values that must never reach the page (platform API key, service-role key). */
  secrets?: string[];
  cwd?: string;
  log?: (line: string) => void;
}

/** The result: the absolute output directory and the files in it. */
export interface DemoBuildResult {
  outDir: string;
  files: string[];
}

function jwtRole(key: string): string | undefined {
  const payload = key.split('.')[1];
  if (!payload) return undefined;
  try {
    const role = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { role?: unknown }).role;
    return typeof role === 'string' ? role : undefined;
  } catch {
    return undefined;
  }
}

/** Refuses a configuration a static page cannot work with or must not carry; returns warnings. */
export function checkBuildConfig(page: DemoConfig, secrets: string[] = []): string[] {
  if (!page.supabaseUrl) {
    throw usageError(
      'A static build needs the hosted database: set VOICE_SUPABASE_URL and VOICE_SUPABASE_ANON_KEY (or --supabase-url and --supabase-anon-key).',
      'The built page reads its visitor from the hosted `visitors` table; see "Visitors, the hosted table, and hosting the page" in docs/demo.md.',
    );
  }
  let url: URL;
  try {
    url = new URL(page.supabaseUrl);
  } catch {
    throw usageError(`The hosted database URL "${page.supabaseUrl}" is not a URL.`, 'Example: https://abcdefgh.supabase.co');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw usageError(`The hosted database URL must use https (got ${url.protocol}).`);
  const key = page.supabaseAnonKey;
  if (key.startsWith('sb_secret_') || jwtRole(key) === 'service_role') {
    throw usageError('That is the service-role key: it must never be put in a page.', 'Use the anon (public) key for VOICE_SUPABASE_ANON_KEY; keep the service-role key for `voice visitor`.');
  }
  const baked = JSON.stringify(page);
  if (secrets.some((s) => s.length >= 6 && baked.includes(s))) {
    throw usageError(
      'A secret key (VOICE_API_KEY or the service-role key) is set as one of the page settings; it would be published.',
      'The page takes only the public key (VOICE_PUBLIC_KEY) and the anon key.',
    );
  }
  const warnings: string[] = [];
  if (!key) warnings.push('No anon key (VOICE_SUPABASE_ANON_KEY): the hosted database will refuse the page.');
  if (!page.webhookUrl || page.webhookUrl.startsWith('/__voice/')) warnings.push('No webhook URL (VOICE_WEBHOOK_URL): "Call Me" will fail on a static host.');
  if (!page.publicKey || !page.assistantId) warnings.push('No public key or assistant id (VOICE_PUBLIC_KEY, VOICE_ASSISTANT_ID): "Test in Browser" will tell visitors it is not available.');
  return warnings;
}

/** Refuses output directories whose contents a build would wrongly wipe. */
export function checkOutDir(outDir: string, root: string, cwd: string): void {
  const out = resolve(outDir);
  const within = (dir: string, base: string) => dir === base || dir.startsWith(base.endsWith(sep) ? base : `${base}${sep}`);
  const guarded = [cwd, root, homedir(), join(root, 'web')].map((d) => resolve(d));
  if (guarded.some((g) => within(g, out)) || within(out, join(root, 'web'))) {
    throw usageError(`Refusing to build into ${outDir}: it would overwrite ${relative(cwd, out) || '.'} itself.`, `Pick an empty or new directory, e.g. --out ${DEFAULT_OUT_DIR}.`);
  }
  if (existsSync(out) && readdirSync(out).length > 0 && !existsSync(join(out, 'index.html'))) {
    throw usageError(`Refusing to build into ${outDir}: it is not empty and holds no earlier build.`, `Pick an empty or new directory, e.g. --out ${DEFAULT_OUT_DIR}.`);
  }
}

/** The settings written into the page: unset (empty) values are left out so the page's defaults apply. */
export function bakedConfig(page: DemoConfig): Partial<DemoConfig> {
  const links = Object.fromEntries(Object.entries(page.links).filter(([, v]) => v !== ''));
  // A hosted page never runs calls on a local emulator: `localCalls` and `localPlatform` are left at their defaults.
  const seller = Object.fromEntries(Object.entries(page.seller).filter(([k, v]) => v !== '' && v !== DEFAULT_SELLER[k as keyof typeof DEFAULT_SELLER]));
  const rest = Object.fromEntries(Object.entries(page).filter(([k, v]) => k !== 'links' && k !== 'seller' && v !== '' && k !== 'localCalls' && k !== 'localPlatform'));
  return {
    ...rest,
    ...(Object.keys(seller).length > 0 ? { seller: seller as DemoConfig['seller'] } : {}),
    ...(Object.keys(links).length > 0 ? { links: links as DemoConfig['links'] } : {}),
  };
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
}

/** Builds the page into `outDir` with its configuration baked in. */
export async function buildDemo(options: DemoBuildOptions): Promise<DemoBuildResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const cwd = options.cwd ?? process.cwd();
  const outDir = resolve(cwd, options.outDir);
  const root = packageRoot();
  for (const warning of checkBuildConfig(options.page, options.secrets)) log(`warning: ${warning}`);
  checkOutDir(outDir, root, cwd);

  const bake: Plugin = {
    name: 'voice-demo-config',
    transformIndexHtml: (html) => ({
      html: withFavicon(html, options.page.seller.logo || DEFAULT_SELLER.logo),
      tags: [{ tag: 'script', children: configScript(bakedConfig(options.page)), injectTo: 'head-prepend' }],
    }),
  };
  const [{ build }, { default: react }] = await Promise.all([import('vite'), import('@vitejs/plugin-react')]);
  await asProduction(() =>
    build({
      configFile: false,
      root: join(root, 'web'),
      base: '/',
      envDir: false,
      logLevel: 'warn',
      clearScreen: false,
      plugins: [coreSource(join(root, 'core')), react(), ...pageBuildPlugins(), bake],
      build: { ...PAGE_BUILD, outDir, emptyOutDir: true },
    }),
  );

  const index = join(outDir, 'index.html');
  // Hosts that serve 404.html for unknown paths (GitHub Pages, S3 error document) still show the page.
  copyFileSync(index, join(outDir, '404.html'));
  const html = readFileSync(index, 'utf8');
  for (const [name, contents] of Object.entries({ ...HOST_FILES, ...securityHostFiles(options.page, html) })) writeFileSync(join(outDir, name), contents);
  const leaked = (options.secrets ?? []).filter((s) => s.length >= 6 && html.includes(s));
  if (leaked.length > 0) throw usageError('The built page contains a secret key; the build was stopped. Remove it from the page settings.');
  return { outDir, files: listFiles(outDir).sort() };
}
