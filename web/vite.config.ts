// Static build of the demo page (`vite build` in web/). `voice demo` serves the same root with
// an inline configuration of its own; see cli/commands/demo/server.ts.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { coreSource } from './vite/core-source.js';
import { PAGE_BUILD, pageBuildPlugins } from './vite/page-build.js';

export default defineConfig({
  plugins: [coreSource(), react(), ...pageBuildPlugins()],
  build: PAGE_BUILD,
});
