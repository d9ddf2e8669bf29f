// Budget: `voice demo` cold start <= 1.1x plain Vite. Measured gain: cold starts swung 0.92 to 1.13x
// with the library in the optimizer; 0.87 to 0.91x with it bundled when the form opens.
// Re-measured 2026-11-26, two shared cores at load average 13 to 25 (cli/launch/README.md):
// demo-start cold 0.94x, 1.48x with it, 1.52x, 1.37x with the library back in the optimizer. Kept.
// The phone library in `voice demo`: bundled into one module the first time the form opens, and
// kept in Vite's cache folder, instead of by Vite's dependency optimizer on every cold start. The
// page's first load never needs it, and bundling it beside react and react-dom took about 40 ms
// of a cold start (of ~500) on two cores; adding it later to the optimizer would change react's
// chunk and reload the page. It imports only `react` from outside, which Vite serves optimized.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Rolldown from 'rolldown';
import type { Plugin } from 'vite';
import { writeFileAtomic } from '#core/fs/atomic';
import { importFromVite } from './vite-bundler.js';

/** The package the plugin stands in for (also kept out of Vite's optimizer). */
export const PHONE_INPUT = 'react-phone-number-input';
const MODULE_ID = `\0voice:${PHONE_INPUT}`;
/** What the bundle may import from outside: React itself, optimized by Vite. */
export const PHONE_INPUT_EXTERNAL = ['react'];

function versions(): string {
  const require = createRequire(import.meta.url);
  const phone = require.resolve(`${PHONE_INPUT}/package.json`);
  const fromPhone = createRequire(phone);
  const read = (file: string): string => (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  return [`${PHONE_INPUT}@${read(phone)}`, ...['libphonenumber-js', 'input-format'].map((name) => `${name}@${read(fromPhone.resolve(`${name}/package.json`))}`)].join(',');
}

/** Bundles the library (its ES modules, development build) as one ES module with `react` left as an import. */
export async function bundlePhoneInput(root: string): Promise<string> {
  const { rolldown } = await importFromVite<typeof Rolldown>('rolldown');
  const bundle = await rolldown({
    // Resolved from the page's folder with the browser's conditions, as Vite resolves it.
    cwd: root,
    input: PHONE_INPUT,
    external: (id) => PHONE_INPUT_EXTERNAL.includes(id),
    platform: 'browser',
    transform: { define: { 'process.env.NODE_ENV': '"development"' } },
    logLevel: 'silent',
  });
  try {
    const { output } = await bundle.generate({ format: 'esm', codeSplitting: false });
    return output[0].code;
  } finally {
    await bundle.close();
  }
}

/** The bundle from `cacheDir` when it was made for the installed versions, else made and saved. */
async function cachedBundle(root: string, cacheDir: string): Promise<string> {
  const file = join(cacheDir, 'voice', `${PHONE_INPUT}.js`);
  const tag = `// ${versions()}\n`;
  try {
    const saved = readFileSync(file, 'utf8');
    if (saved.startsWith(tag)) return saved;
  } catch {
    // Not made yet.
  }
  const code = tag + (await bundlePhoneInput(root));
  try {
    mkdirSync(dirname(file), { recursive: true });
    await writeFileAtomic(file, code);
  } catch {
    // A cache that cannot be written costs the next start one more bundling.
  }
  return code;
}

/** Serves `react-phone-number-input` as one module bundled on first use (dev server only). */
export function phoneInputDev(): Plugin {
  let root = '';
  let cacheDir = '';
  let code: Promise<string> | undefined;
  return {
    name: 'voice-phone-input-dev',
    apply: 'serve',
    enforce: 'pre',
    configResolved(config) {
      ({ root, cacheDir } = config);
    },
    // Filters let Vite skip the hooks for every other module without calling them.
    resolveId: {
      filter: { id: new RegExp(`^${PHONE_INPUT}$`) },
      handler: (id) => (id === PHONE_INPUT ? MODULE_ID : undefined),
    },
    load: {
      filter: { id: new RegExp(`^${MODULE_ID}$`) },
      handler(id) {
        if (id !== MODULE_ID) return undefined;
        code ??= cachedBundle(root, cacheDir);
        return code;
      },
    },
  };
}
