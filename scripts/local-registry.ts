// A loopback npm registry for the packaging test: our freshly packed tarballs, plus every
// package of package-lock.json served from the local npm cache, so `npm install` (global ones
// too) runs as if both packages were published, and never reaches the internet. A package that
// is not in the lock or not in the cache answers 404, so an install that would need the network
// fails at once. (npm's own `--offline` cannot do this: `npm ci` caches tarballs but not the
// install metadata that resolving a fresh project needs.)
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** A packed tarball to publish on the loopback registry. */
export interface PackedPackage {
  /** Its package.json (as packed). */
  manifest: { name: string; version: string } & Record<string, unknown>;
  /** Path of the .tgz file. */
  tarball: string;
}

/** A running loopback registry. */
export interface LocalRegistry {
  /** Base URL, for `--registry`. */
  url: string;
  /** Tarball requests answered with 404 (not in the local cache). */
  missing: string[];
  close(): Promise<void>;
}

interface Version {
  manifest: Record<string, unknown>;
  /** Where the tarball's bytes are. */
  file: string;
}

interface LockEntry {
  name?: string;
  version?: string;
  integrity?: string;
  link?: boolean;
  [field: string]: unknown;
}

// Fields of a lock entry that are also fields of a version's install metadata.
const MANIFEST_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta', 'bin', 'engines', 'os', 'cpu', 'libc', 'hasInstallScript', 'deprecated', 'license'];

/** Where cacache keeps the bytes of content with this integrity (its content-v2 layout). */
export function cachePath(cacheDir: string, integrity: string): string {
  const first = integrity.trim().split(/\s+/)[0] ?? '';
  const dash = first.indexOf('-');
  const hex = Buffer.from(first.slice(dash + 1), 'base64').toString('hex');
  return join(cacheDir, '_cacache', 'content-v2', first.slice(0, dash), hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
}

function versionKey(version: string): number[] {
  const [core = '', pre] = version.split('-', 2);
  return [...core.split('.').map(Number), pre === undefined ? 1 : 0];
}

function newest(versions: string[]): string {
  return [...versions].sort((a, b) => {
    const ka = versionKey(a);
    const kb = versionKey(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return (ka[i] ?? 0) - (kb[i] ?? 0);
    return 0;
  })[versions.length - 1] as string;
}

/** Starts the registry on 127.0.0.1 (a free port). */
export async function startLocalRegistry(options: { lockfile: string; cacheDir: string; packages: PackedPackage[] }): Promise<LocalRegistry> {
  const lock = JSON.parse(readFileSync(options.lockfile, 'utf8')) as { packages: Record<string, LockEntry> };
  const byName = new Map<string, Map<string, Version>>();
  const add = (name: string, version: string, manifest: Record<string, unknown>, file: string): void => {
    const versions = byName.get(name) ?? new Map<string, Version>();
    byName.set(name, versions);
    versions.set(version, { manifest, file });
  };
  for (const [key, entry] of Object.entries(lock.packages)) {
    const at = key.lastIndexOf('node_modules/');
    if (at < 0 || entry.link || !entry.version || !entry.integrity) continue;
    const name = entry.name ?? key.slice(at + 'node_modules/'.length);
    const manifest: Record<string, unknown> = { name, version: entry.version };
    for (const field of MANIFEST_FIELDS) if (entry[field] !== undefined) manifest[field] = entry[field];
    manifest.dist = { integrity: entry.integrity };
    add(name, entry.version, manifest, cachePath(options.cacheDir, entry.integrity));
  }
  for (const pkg of options.packages) {
    const integrity = `sha512-${createHash('sha512').update(readFileSync(pkg.tarball)).digest('base64')}`;
    add(pkg.manifest.name, pkg.manifest.version, { ...pkg.manifest, dist: { integrity } }, pkg.tarball);
  }

  const missing: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).slice(1);
    const tarball = /^(.+)\/-\/(\d[^/]*)\.tgz$/.exec(path);
    if (tarball) {
      const found = byName.get(tarball[1] as string)?.get(tarball[2] as string);
      if (!found || !existsSync(found.file)) {
        missing.push(path);
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      createReadStream(found.file).pipe(res);
      return;
    }
    const versions = byName.get(path);
    if (!versions) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    const base = `http://${req.headers.host}`;
    const packument = {
      name: path,
      'dist-tags': { latest: newest([...versions.keys()]) },
      versions: Object.fromEntries([...versions].map(([version, v]) => [version, { ...v.manifest, dist: { ...(v.manifest.dist as object), tarball: `${base}/${path}/-/${version}.tgz` } }])),
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    missing,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The environment that points npm at `registryUrl` only: a throwaway cache and empty user and
 * global settings under `dir`, none of the calling npm's own `npm_*` settings, and no proxy.
 */
export function npmEnvFor(registryUrl: string, dir: string): Record<string, string | undefined> {
  const own = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return {
    ...own,
    npm_config_registry: registryUrl,
    npm_config_cache: join(dir, 'cache'),
    npm_config_userconfig: join(dir, 'npmrc'),
    npm_config_globalconfig: join(dir, 'global-npmrc'),
    npm_config_update_notifier: 'false',
    // The registry is on loopback: never through a proxy.
    HTTPS_PROXY: '',
    HTTP_PROXY: '',
    https_proxy: '',
    http_proxy: '',
    NO_PROXY: '127.0.0.1',
    no_proxy: '127.0.0.1',
  };
}
