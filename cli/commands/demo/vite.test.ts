// The Vite script of the built CLI (dist/cli/chunks/vite-script.js, its code cache beside it)
// against Vite imported as usual: the same transforms of the demo page, the cache used, a cache
// made in the user's folder when the built one does not fit, and no script for other versions.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vite from 'vite';
import react from '@vitejs/plugin-react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheFolder } from '../../launch/code-cache.js';
import { ensureBuilt, ROOT } from '../../test/build.js';
import { runViteScript } from './vite.js';

const SCRIPT = join(ROOT, 'dist', 'cli', 'chunks', 'vite-script.js');
const WEB = join(ROOT, 'web');

/** What a dev server of these tools makes of the demo page's HTML and first modules. */
async function transforms(tools: { vite: typeof vite; react: typeof react }): Promise<string[]> {
  const server = await tools.vite.createServer({
    configFile: false,
    envDir: false,
    root: WEB,
    logLevel: 'silent',
    appType: 'spa',
    plugins: [tools.react()],
    server: { middlewareMode: true, watch: null, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
    cacheDir: join(dir, 'vite-cache'),
  });
  try {
    const html = await server.transformIndexHtml('/acme', readFileSync(join(WEB, 'index.html'), 'utf8'));
    const modules = await Promise.all(['/src/main.tsx', '/src/App.tsx', '/@vite/client'].map(async (url) => (await server.transformRequest(url))?.code ?? ''));
    // Three things differ from server to server: the optimized dependencies' browser hash (it
    // includes when their optimization ran), the client's random WebSocket token, and the order
    // of the CommonJS interop lines (each is added when its import resolves, and those resolve
    // concurrently): those are compared sorted.
    const interop = /const \w+ = __vite__cjsImport\d+_\w+\["\w+"\];\s?/g;
    return [html, ...modules].map((text) => {
      const fixed = text.replace(/([?&]v=)[0-9a-f]{8}/g, '$1hash').replace(/wsToken = "[^"]+"/, 'wsToken = "token"');
      return `${fixed.replace(interop, '')}\n${(fixed.match(interop) ?? [])
        .map((line) => line.trim())
        .sort()
        .join('\n')}`;
    });
  } finally {
    await server.close();
  }
}

let dir: string;
const saved = process.env.XDG_CACHE_HOME;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'voice-vite-'));
  process.env.XDG_CACHE_HOME = join(dir, 'cache');
});
afterAll(() => {
  if (saved === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe('the Vite script', () => {
  it('runs from the code cache made at build time and transforms the page as Vite does', async () => {
    const { tools } = await runViteScript(SCRIPT);
    expect(tools.cached).toBe(true);
    expect(tools.vite.version).toBe(vite.version);
    const [fromScript, imported] = [await transforms(tools), await transforms({ vite, react })];
    expect(fromScript.length).toBe(4);
    // Same HTML (with Vite's client and React Refresh's preamble) and the same module code.
    fromScript.forEach((text, i) => expect(text).toBe(imported[i]));
    expect(fromScript[2]).toContain('$RefreshReg$');
  });

  it('makes its own cache in the cache folder when the built one does not fit, and uses it next time', async () => {
    const file = join(dir, 'vite-script.js');
    copyFileSync(SCRIPT, file);
    const name = /voiceCache=(\S+)\s*$/.exec(readFileSync(SCRIPT, 'utf8'))?.[1] as string;
    writeFileSync(join(dir, name), 'not a V8 code cache');
    const first = await runViteScript(file);
    expect(first.tools.cached).toBe(false);
    first.tools.saveCache();
    expect(readdirSync(cacheFolder())).toEqual([expect.stringMatching(new RegExp(`^vite-script-${process.version}-${process.arch}-[0-9a-f]{16}\\.cache$`))]);
    const second = await runViteScript(file);
    expect(second.tools.cached).toBe(true);
    expect(typeof second.tools.vite.createServer).toBe('function');
  });

  it('is not used when the installed Vite is another version (the caller then imports it)', async () => {
    const file = join(dir, 'other-version.js');
    writeFileSync(file, readFileSync(SCRIPT, 'utf8').replace(/voiceVersions=vite@[^,\s]+/, 'voiceVersions=vite@0.0.1'));
    await expect(runViteScript(file)).rejects.toThrow(`the Vite script was built with vite@0.0.1, vite@${vite.version} is installed`);
  });
});
