// Loopback helpers: free ports, waiting for a server, bounded polling.
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1 (asked from the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Waits a number of milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls a URL until it answers 200 (returning the body) or the deadline passes (throws).
 * Connection refusals are expected while a server starts; the poll interval is short because
 * the time to first answer is what some benchmarks measure.
 */
export async function waitForOk(url: string, timeoutMs: number, intervalMs = 5, headers: Record<string, string> = {}): Promise<string> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer';
  while (performance.now() < deadline) {
    try {
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(Math.max(1, Math.ceil(deadline - performance.now()))) });
      const body = await response.text();
      if (response.ok) return body;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(intervalMs);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (${last})`);
}
