// Every command of docs/load.md runs as written, against a loopback server standing in for the
// one the guide names (localhost:3000 and staging.example.com point at it).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './build.js';
import { devServer, messageOf } from './dev-server.js';
import { fileHarness } from './harness.js';

const h = fileHarness();

function commands(): string[] {
  const text = readFileSync(join(ROOT, 'docs', 'load.md'), 'utf8');
  return [...text.matchAll(/```sh[^\n]*\n([\s\S]*?)```/g)].flatMap((m) => (m[1] as string).split('\n').filter((line) => line.trim()));
}

it('runs every command docs/load.md shows', async () => {
  const server = await devServer((g) => {
    const m = messageOf(g);
    if (m.type === 'assistant-request') return { body: { assistantId: 'a1' } };
    if (m.type === 'tool-calls') return { body: { results: (m.toolCallList as { id: string }[]).map((c) => ({ toolCallId: c.id, result: 'Booked.' })) } };
    return { body: {} };
  });
  try {
    const lines = commands();
    expect(lines.length).toBeGreaterThanOrEqual(5);
    const host = new URL(server.url).host;
    for (const line of lines) {
      expect(line.startsWith('voice load ')).toBe(true);
      const args = line.replace('localhost:3000', host).replace('https://staging.example.com', server.url).split(/\s+/).slice(1);
      const run = await h.current.voice(args, { timeout: 90_000 });
      expect(run.exitCode, `${line}\n${run.stderr}`).toBe(0);
    }
    expect(existsSync(join(h.current.home, 'load.html'))).toBe(true);
    expect(readFileSync(join(h.current.home, 'load.yml'), 'utf8')).toContain('scenarios:');
  } finally {
    await server.close();
  }
}, 240_000);
