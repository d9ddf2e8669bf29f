// Static build of the demo page (`vite build` in web/). `voice demo` serves the same root with
// an inline configuration of its own; see cli/demo/server.ts.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { earlyLookup } from './vite/early-lookup.js';
import { flagFiles } from './vite/flag-files.js';
import { inlineCss } from './vite/inline-css.js';
import { phoneInputBuild } from './vite/phone-input-build.js';

export default defineConfig({
  plugins: [react(), flagFiles(), phoneInputBuild(), earlyLookup(), inlineCss()],
  build: { target: 'es2022', modulePreload: { polyfill: false } },
});
