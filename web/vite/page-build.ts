// The demo page's build plugins and options, shared by `vite build` in web/ (web/vite.config.ts)
// and `voice demo build`, which builds with them from the CLI without loading a config file.
import type { BuildEnvironmentOptions, Plugin } from 'vite';
import { flagFiles } from './flag-files.js';
import { inlineCss } from './inline-css.js';
import { phoneInputBuild } from './phone-input-build.js';

/** The page's own build plugins (React's plugin is added by the caller, from its own Vite). */
export function pageBuildPlugins(): Plugin[] {
  return [flagFiles(), phoneInputBuild(), inlineCss()];
}

/** The page's build options. */
export const PAGE_BUILD: BuildEnvironmentOptions = { target: 'es2022', modulePreload: { polyfill: false } };
