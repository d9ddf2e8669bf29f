// Where the platform and the local emulator answer: the one place these addresses are written.

/** The platform's hosted API, the default base URL of the client, the CLI and web calls. */
export const PLATFORM_API = 'https://api.vapi.ai';

/** The port `voice dev` listens on by default (and `voice demo`'s emulator, so `--local` sees its calls). */
export const EMULATOR_PORT = 4010;

/** The emulator's default address: what `--local` talks to. */
export const EMULATOR_URL = `http://127.0.0.1:${EMULATOR_PORT}`;

/**
 * The `voice` flags that reach the emulator at `baseUrl` with no key (`--local`, plus `--api-url`
 * off the default address), for every command printed for the user to run.
 */
export function localFlags(baseUrl: string): string {
  const url = baseUrl.replace(/\/+$/, '');
  return url === EMULATOR_URL ? '--local' : `--local --api-url ${url}`;
}
