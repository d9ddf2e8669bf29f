// The browser entry and everything it imports must bundle for the browser: no Node built-ins,
// no Node-only modules of the client, no bare packages.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('core/client/index.ts bundles for the browser with no Node imports', async () => {
  const entry = fileURLToPath(new URL('./index.ts', import.meta.url));
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    metafile: true,
    logLevel: 'silent',
  });
  expect(result.errors).toEqual([]);
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.some((p) => p.endsWith('core/client/client.ts'))).toBe(true);
  expect(inputs.filter((p) => /(^|\/)node[-.]|node_modules|^node:/.test(p))).toEqual([]);
  const imports = Object.values(result.metafile.inputs).flatMap((i) => i.imports.map((x) => x.path));
  expect(imports.filter((p) => p.startsWith('node:') || p === 'undici')).toEqual([]);
});

it('the Node entry is what pulls in Node built-ins (the check above can tell)', async () => {
  const entry = fileURLToPath(new URL('./node.ts', import.meta.url));
  const result = await build({ entryPoints: [entry], bundle: true, write: false, platform: 'browser', format: 'esm', logLevel: 'silent' }).catch((e: { errors: unknown[] }) => e);
  expect((result as { errors: unknown[] }).errors.length).toBeGreaterThan(0);
});
