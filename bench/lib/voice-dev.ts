// `voice dev` as the benchmarks start it: the built bin/voice.js on a free port, quiet, timed from
// launch to the URL it prints on stdout.
import { spawn } from 'node:child_process';

/** A running `voice dev`. */
export interface VoiceDev {
  /** What it printed: the emulator's base URL. */
  url: string;
  /** Launch to the URL on stdout. */
  ms: number;
  pid: number | undefined;
  /** Stops it (SIGINT) and resolves once it has exited. */
  stop(): Promise<void>;
}

/** Starts `voice dev --port 0 --quiet` with `args` in the checkout at `root`; resolves once it prints its URL. */
export function startVoiceDev(root: string, args: string[]): Promise<VoiceDev> {
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/voice.js', 'dev', '--port', '0', '--quiet', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
  const stop = (): Promise<void> =>
    new Promise((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGINT');
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`voice dev exited ${code}`)));
    child.stdout.once('data', (d: Buffer) => resolve({ url: d.toString().trim(), ms: performance.now() - started, pid: child.pid, stop }));
  });
}

/** One launch of `voice dev` with `args` to its URL, in ms; it is stopped (and has exited) before this resolves. */
export async function voiceDevStartMs(root: string, args: string[]): Promise<number> {
  const dev = await startVoiceDev(root, args);
  await dev.stop();
  return dev.ms;
}
