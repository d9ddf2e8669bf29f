// The gitops commands send their burst of requests over node:http (loading undici would cost a
// one-shot apply more than it saves), through the same client, and still with --verbose.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import * as nodeClient from '#core/client/node';
import { startServer } from '#core/client/node-testing';
import { kindNamed, opOf } from '#core/gitops/kinds';
import { gitopsRun, withDir } from './common.js';
import type { GitopsRun } from './common.js';

vi.mock('#core/client/node', async (importOriginal) => {
  const original = await importOriginal<typeof nodeClient>();
  return { ...original, nodeTransport: vi.fn(original.nodeTransport) };
});

const home = mkdtempSync(join(tmpdir(), 'voice-gitops-common-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
afterEach(() => vi.mocked(nodeClient.nodeTransport).mockClear());

async function runOf(args: string[]): Promise<GitopsRun> {
  vi.stubEnv('XDG_CONFIG_HOME', home);
  let run: GitopsRun | undefined;
  const program = new Command('voice').option('--api-key <key>').option('--api-url <url>').option('--verbose').exitOverride();
  program.addCommand(withDir(new Command('plan')).action((_o: unknown, cmd: Command) => void (run = gitopsRun(cmd))));
  await program.parseAsync(['plan', ...args], { from: 'user' });
  return run as GitopsRun;
}

describe('gitopsRun', () => {
  it('gives the commands a client pinned to node:http', async () => {
    const server = await startServer(() => ({ body: { id: 'a1' } }));
    try {
      const run = await runOf(['--api-key', 'k', '--api-url', server.url]);
      expect(vi.mocked(nodeClient.nodeTransport)).toHaveBeenCalledWith({ mode: 'http' });
      const made = await Promise.all(Array.from({ length: 12 }, () => run.client.invoke(opOf(kindNamed('assistants')!, 'create'), [], { name: 'A' })));
      expect(made).toEqual(Array.from({ length: 12 }, () => ({ id: 'a1' })));
      expect(server.requests.map((r) => r.headers.authorization)).toEqual(Array.from({ length: 12 }, () => 'Bearer k'));
    } finally {
      await server.close();
    }
  });

  it('keeps the pinned transport under --verbose', async () => {
    await runOf(['--api-key', 'k', '--api-url', 'http://127.0.0.1:9', '--verbose']);
    expect(vi.mocked(nodeClient.nodeTransport)).toHaveBeenCalledWith({ mode: 'http' });
  });
});
