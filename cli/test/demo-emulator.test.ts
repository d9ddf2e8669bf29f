// `voice demo` uses an emulator it did not start only when told (--api-url): with a `voice dev`
// on the port it prefers, it runs its own, puts its assistant there, and says how to use the other.
import { execa } from 'execa';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './build.js';
import { fileHarness, json } from './harness.js';

const hf = fileHarness();

/** Runs `voice demo` until it prints its URL; returns the page's settings, stderr, and a stop. */
async function demo(args: string[]): Promise<{ page: { apiBaseUrl?: string; assistantId?: string }; stderr: () => string; stop: () => Promise<void> }> {
  const env: Record<string, string> = { ...hf.current.env, NO_COLOR: '1', VOICE_DEMO_EMULATOR_PORT: String(hf.current.emu.port), XDG_CACHE_HOME: join(hf.current.home, 'cache') };
  delete env.VOICE_API_URL;
  delete env.VOICE_API_KEY;
  const child = execa(process.execPath, [join(ROOT, 'bin', 'voice.js'), 'demo', '--slug', 'acme', '--port', '0', ...args], {
    cwd: hf.current.home,
    env,
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += String(c)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const found = /http:\/\/\S+/.exec(String(chunk));
      if (found) resolve(found[0]);
    });
    void child.then((r) => reject(new Error(`exited ${r.exitCode}: ${String(r.stderr)}`)));
  });
  const html = await (await fetch(url, { headers: { accept: 'text/html' } })).text();
  const page = JSON.parse(/window\.__VOICE_CONFIG__=(.*?);<\/script>/.exec(html)?.[1] ?? '{}') as { apiBaseUrl?: string; assistantId?: string };
  return {
    page,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGINT');
      await child;
    },
  };
}

describe('voice demo and an emulator it did not start', () => {
  it('runs its own emulator when one already holds its port, and leaves that one alone', async () => {
    const d = await demo([]);
    try {
      expect(d.page.apiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(d.page.apiBaseUrl).not.toBe(hf.current.emu.url);
      expect(d.stderr()).toContain(`pass --api-url ${hf.current.emu.url}`);
      const mine = await fetch(`${d.page.apiBaseUrl}/assistant/${d.page.assistantId}`, { headers: { authorization: 'Bearer any' } });
      expect(((await mine.json()) as { name: string }).name).toBe('voice demo (local)');
    } finally {
      await d.stop();
    }
    expect(json<unknown[]>(await hf.current.voice(['assistant', 'list', '--json']))).toEqual([]);
  });

  it("uses that emulator when --api-url names it, with the demo's assistant there", async () => {
    const d = await demo(['--api-url', hf.current.emu.url]);
    try {
      expect(d.page.apiBaseUrl).toBe(hf.current.emu.url);
      const listed = json<{ id: string; name: string }[]>(await hf.current.voice(['assistant', 'list', '--json']));
      expect(listed.map((a) => a.id)).toEqual([d.page.assistantId]);
    } finally {
      await d.stop();
    }
  });
});
