// esbuild options of core's Node bundles (the emulator and the model step), shared by scripts/build.js (which builds it) and
// scripts/packages.test.ts (which asks esbuild what the bundle leaves as imports).

// CommonJS dependencies bundled into ESM still call require() for Node built-ins.
export const requireShim = "import { createRequire as __voiceRequire } from 'node:module'; const require = __voiceRequire(import.meta.url);";

/**
 * Native speed-ups `ws` (the emulator's web-call socket) requires inside a try/catch and does
 * without when they are missing: left as imports, never dependencies of core.
 */
export const OPTIONAL_NATIVE = ['bufferutil', 'utf-8-validate'];

/**
 * The emulator's build: everything bundled except core's runtime and peer dependencies, so adding
 * a helper library never adds a runtime dependency for core's users.
 */
export function emulatorBuild(root, corePkg) {
  return {
    metafile: true,
    absWorkingDir: root,
    entryPoints: { emulator: 'core/emulator/index.ts', model: 'core/model/index.ts' },
    outdir: 'core/dist',
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: [...Object.keys(corePkg.dependencies ?? {}), ...Object.keys(corePkg.peerDependencies ?? {}), ...OPTIONAL_NATIVE],
    sourcemap: true,
    banner: { js: requireShim },
    define: { __VOICE_VERSION__: JSON.stringify(corePkg.version) },
    logLevel: 'warning',
  };
}
