// The phone library as `voice demo` serves it: one ES module, bundled on first use and kept in
// Vite's cache folder, importing nothing but React (which Vite has optimized), so opening the form
// never makes Vite find a new dependency (and reload the page).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAst } from 'vite';
import type { ResolvedConfig } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { bundlePhoneInput, PHONE_INPUT, PHONE_INPUT_EXTERNAL, phoneInputDev } from './phone-input-dev.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const cacheDir = mkdtempSync(join(tmpdir(), 'voice-phone-input-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

interface Hooks {
  configResolved(config: Pick<ResolvedConfig, 'root' | 'cacheDir'>): void;
  resolveId(id: string): string | undefined;
  load(id: string): Promise<string> | undefined;
}
interface Filtered<F> {
  filter: { id: RegExp };
  handler: F;
}
/** The plugin's hooks as Vite calls them: only for ids their filter matches. */
function plugin(): Hooks {
  const p = phoneInputDev() as unknown as { configResolved: Hooks['configResolved']; resolveId: Filtered<Hooks['resolveId']>; load: Filtered<Hooks['load']> };
  return {
    configResolved: p.configResolved,
    resolveId: (id) => (p.resolveId.filter.id.test(id) ? p.resolveId.handler(id) : undefined),
    load: (id) => (p.load.filter.id.test(id) ? p.load.handler(id) : undefined),
  };
}

describe('bundlePhoneInput', () => {
  it("is the library's ES build in one module that imports only React", async () => {
    const code = await bundlePhoneInput(root);
    const imports = parseAst(code)
      .body.filter((n) => n.type === 'ImportDeclaration')
      .map((n) => (n as unknown as { source: { value: string } }).source.value);
    expect(imports).toEqual(PHONE_INPUT_EXTERNAL);
    expect(code).not.toMatch(/__require\(|process\.env/);
    expect(code).toMatch(/export \{[^}]*\bas default\b/);
  });
});

describe('phoneInputDev', () => {
  it('stands in for the package only, bundles it once and keeps it in the cache folder', async () => {
    const first = plugin();
    first.configResolved({ root, cacheDir });
    expect(first.resolveId('react-phone-number-input/style.css')).toBeUndefined();
    const id = first.resolveId(PHONE_INPUT) as string;
    expect(id).toMatch(/^\0/);
    expect(first.load('/src/App.tsx')).toBeUndefined();
    const code = await first.load(id);
    expect(code).toMatch(/^\/\/ react-phone-number-input@[\d.]+,libphonenumber-js@[\d.]+,input-format@[\d.]+\n/);
    const file = join(cacheDir, 'voice', `${PHONE_INPUT}.js`);
    expect(readFileSync(file, 'utf8')).toBe(code);

    // A later start reads the file when it was made for the installed versions...
    const tag = (code as string).slice(0, (code as string).indexOf('\n') + 1);
    writeFileSync(file, `${tag}export default 'from the cache';\n`);
    const second = plugin();
    second.configResolved({ root, cacheDir });
    expect(await second.load(id)).toBe(`${tag}export default 'from the cache';\n`);
    // ...and bundles again when it was not.
    writeFileSync(file, `// react-phone-number-input@0.0.1\nexport default 'stale';\n`);
    const third = plugin();
    third.configResolved({ root, cacheDir });
    expect(await third.load(id)).toBe(code);
  });
});
