// Static build of the `voice dev` inspector (a second React app): scripts/build.js runs it into
// dist/inspector, which the emulator serves at /__voice/inspector/. No Vite at run time.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { coreSource } from '../vite/core-source.js';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [coreSource(), react()],
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../dist/inspector', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
  },
});
