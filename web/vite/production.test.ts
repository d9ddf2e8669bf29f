import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { asProduction } from './production.js';

const saved = process.env.NODE_ENV;
afterEach(() => {
  if (saved === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = saved;
});

/** asProduction as the CLI bundles it: with `process.env.NODE_ENV` defined as a constant. */
async function bundled(): Promise<typeof asProduction> {
  const out = await build({
    entryPoints: [new URL('./production.js', import.meta.url).pathname],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]?.text ?? '';
  const mod = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as { asProduction: typeof asProduction };
  return mod.asProduction;
}

describe('asProduction', () => {
  for (const [name, load] of [
    ['from source', async () => asProduction],
    ['bundled with NODE_ENV defined, as in the CLI', bundled],
  ] as const) {
    it(`builds with NODE_ENV=production and puts it back after (${name})`, async () => {
      const run = await load();
      process.env.NODE_ENV = 'test';
      expect(await run(async () => process.env.NODE_ENV)).toBe('production');
      expect(process.env.NODE_ENV).toBe('test');
      delete process.env.NODE_ENV;
      await expect(
        run(async () => {
          throw new Error('build failed');
        }),
      ).rejects.toThrow('build failed');
      expect('NODE_ENV' in process.env).toBe(false);
    });
  }
});
