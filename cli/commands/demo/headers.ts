// The demo page's security headers, one policy for both ways it is served: `voice demo` (Vite;
// a fresh nonce per page load) and `voice demo build` (a static page; hashes of its inline
// scripts, written as host configuration files). Scripts come only from the page itself, the
// nonce/hashes and Daily's call bundle; connections only to what the configuration names.
import { PLATFORM_API } from '#core/hosts';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DemoConfig } from '#core/visitors/page-config';

/** The platform's API host, which "Test in Browser" calls when no API URL is configured. */
const DEFAULT_API = PLATFORM_API;

/**
 * Daily's hosts: the call bundle (loaded as a script with `avoidEval`), the call's signalling and
 * media, and the error reports daily-js itself sends to Daily's own Sentry project (its DSN is in daily-js).
 */
const DAILY = {
  script: ['https://*.daily.co'],
  connect: ['https://*.daily.co', 'wss://*.daily.co', 'https://*.pluot.blue', 'wss://*.pluot.blue', 'https://o77906.ingest.sentry.io'],
};

/** Headers for every response of the page (besides the CSP, which is per document). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Content-Type-Options': 'nosniff',
  // For browsers without CSP frame-ancestors (the CSP below says the same).
  'X-Frame-Options': 'DENY',
};

function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The origins the page connects to: database, webhook, API, error reporting (relative URLs are 'self'). */
export function connectOrigins(config: DemoConfig): string[] {
  const sentry = config.sentryDsn ? originOf(config.sentryDsn.replace(/\/\/[^@/]*@/, '//')) : undefined;
  const found = [config.supabaseUrl, config.webhookUrl, config.apiBaseUrl || DEFAULT_API].map((u) => (u ? originOf(u) : undefined));
  return [...new Set([...found, sentry].filter((o): o is string => o !== undefined))];
}

/** A plain-http origin on this machine (an emulator; the hosted platform is https). */
const LOOPBACK_HTTP = /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/;

/**
 * The socket origin of an emulator's web calls (`ws://127.0.0.1:4010`), which the web-call client
 * joins at the API's own address: when Test in Browser runs on the demo's emulator (`localCalls`),
 * or when the configured API is one on loopback (`voice dev`). 'self' covers only the page's own
 * origin and an `http:` source never matches `ws:`. A hosted API (https, not loopback) gets none,
 * and a static build (`voice demo build`) none at all.
 */
function localCallSockets(config: DemoConfig): string[] {
  const api = config.apiBaseUrl ? originOf(config.apiBaseUrl) : undefined;
  if (!api || !(config.localCalls || LOOPBACK_HTTP.test(api))) return [];
  return [api.replace(/^http/, 'ws')];
}

/** The sha256 CSP source of an inline element's text. */
export function inlineHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** Every inline `<script>` body of an HTML document, as CSP hash sources. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => inlineHash(m[1] ?? ''));
}

/** Every `<style>` element's text of an HTML document (a build inlines the page's CSS), as CSP hash sources. */
export function inlineStyleHashes(html: string): string[] {
  return [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => inlineHash(m[1] ?? ''));
}

/** How inline scripts and styles are allowed: a per-response nonce (`voice demo`) or the hashes of a built page's elements. */
export type InlineSources = { nonce: string } | { hashes: string[]; styles?: string[] };

/** The Content-Security-Policy of the page for this configuration. */
export function contentSecurityPolicy(config: DemoConfig, inline: InlineSources): string {
  const allowInline = 'nonce' in inline ? [`'nonce-${inline.nonce}'`] : inline.hashes;
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...allowInline, ...DAILY.script, 'blob:'],
    // Vite adds the page's CSS as <style> elements while developing (they carry the nonce); a
    // build writes it into the HTML (web/vite/inline-css.ts).
    'style-src': ["'self'", ...('nonce' in inline ? [`'nonce-${inline.nonce}'`] : (inline.styles ?? []))],
    // A built page (hashes) is hosted: it never joins calls on an emulator.
    'connect-src': ["'self'", ...connectOrigins(config), ...('nonce' in inline ? localCallSockets(config) : []), ...DAILY.connect],
    // The seller's logo may live on its own site.
    'img-src': ["'self'", 'data:', ...[config.seller.logo].map((u) => (u ? originOf(u) : undefined)).filter((o): o is string => o !== undefined)],
    'media-src': ["'self'", 'blob:'],
    'worker-src': ["'self'", 'blob:'],
    'font-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${[...new Set(sources)].join(' ')}`)
    .join('; ');
}

/** Every header of the page document. */
export function pageHeaders(config: DemoConfig, inline: InlineSources): Record<string, string> {
  return { 'Content-Security-Policy': contentSecurityPolicy(config, inline), ...SECURITY_HEADERS };
}

/** The host configuration files `voice demo build` writes: the headers for every path, per host. */
export function hostHeaderFiles(headers: Record<string, string>): { _headers: string; 'netlify.toml': string; vercelHeaders: { source: string; headers: { key: string; value: string }[] }[] } {
  const entries = Object.entries(headers);
  return {
    // Netlify and Cloudflare Pages.
    _headers: `/*\n${entries.map(([k, v]) => `  ${k}: ${v}\n`).join('')}`,
    'netlify.toml': `[[headers]]\n  for = "/*"\n  [headers.values]\n${entries.map(([k, v]) => `    ${k} = ${JSON.stringify(v)}\n`).join('')}`,
    vercelHeaders: [{ source: '/(.*)', headers: entries.map(([key, value]) => ({ key, value })) }],
  };
}

/** What Vite puts on every script and style of the page, swapped for a fresh nonce per load. */
export const NONCE_PLACEHOLDER = 'voice-csp-nonce-placeholder';

/**
 * Middleware giving every response the page's security headers, and every HTML page a
 * Content-Security-Policy with a nonce of its own (in place of Vite's placeholder).
 */
export function securityHeaders(page: DemoConfig) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    if (!(req.headers.accept ?? '').includes('text/html')) return next();
    // A cached page would carry an old nonce: always send it afresh.
    delete req.headers['if-none-match'];
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : undefined;
      if (text === undefined || !text.includes(NONCE_PLACEHOLDER)) return end(chunk, ...rest);
      const nonce = randomBytes(16).toString('base64');
      res.setHeader('Content-Security-Policy', contentSecurityPolicy(page, { nonce }));
      res.removeHeader('etag');
      res.removeHeader('content-length');
      return end(text.replaceAll(NONCE_PLACEHOLDER, nonce), ...rest);
    }) as ServerResponse['end'];
    next();
  };
}
