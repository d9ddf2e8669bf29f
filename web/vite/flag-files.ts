// Country flags for the phone form, served as files of the page's own origin (never a third-party
// host) instead of inlined as SVG in the form's chunk: the form shows one flag at a time, so the
// browser fetches one small image instead of parsing every flag's markup.
// The images are country-flag-icons' 3x2 SVGs, the set react-phone-number-input draws from.
// `voice demo` serves them from node_modules; `vite build` (and `voice demo build`) emits them
// under flags/.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/** Where the flags are served, under the page's base: `flags/US.svg`. */
export const FLAGS_DIR = 'flags';

const FLAG_FILE = /^[A-Z]{2}\.svg$/;

/** The folder of 3x2 SVG flags of the installed country-flag-icons (react-phone-number-input's dependency). */
export function flagsSource(): string {
  const fromPhone = createRequire(createRequire(import.meta.url).resolve('react-phone-number-input'));
  return join(dirname(fromPhone.resolve('country-flag-icons')), '3x2');
}

/** Serves `/flags/XX.svg` in the dev server and emits every flag into the build. */
export function flagFiles(): Plugin {
  const source = flagsSource();
  return {
    name: 'voice-flag-files',
    configureServer(server) {
      const prefix = `${server.config.base.replace(/\/$/, '')}/${FLAGS_DIR}/`;
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0] ?? '';
        if (!path.startsWith(prefix)) return next();
        const name = path.slice(prefix.length);
        if (!FLAG_FILE.test(name)) return next();
        let body: Buffer;
        try {
          body = readFileSync(join(source, name));
        } catch {
          return next();
        }
        res.setHeader('Content-Type', 'image/svg+xml');
        res.setHeader('Cache-Control', 'public, max-age=86400');
        res.end(body);
      });
    },
    generateBundle() {
      for (const name of readdirSync(source).filter((file) => FLAG_FILE.test(file))) {
        this.emitFile({ type: 'asset', fileName: `${FLAGS_DIR}/${name}`, source: readFileSync(join(source, name)) });
      }
    },
  };
}
