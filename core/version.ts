// The package version, inlined at build time; `dev` when running from source.
declare const __VOICE_VERSION__: string | undefined;

/** Version of this package. */
export const VERSION: string = typeof __VOICE_VERSION__ === 'string' ? __VOICE_VERSION__ : 'dev';
