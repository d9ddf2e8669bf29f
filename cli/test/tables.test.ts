// Tables on a terminal never cut an id (other columns shrink, then the last ones are left out);
// `--wide` shows every cell whole; `--columns` picks the columns, on a terminal and piped.
import { describe, expect, it } from 'vitest';
import { fileHarness, json } from './harness.js';
import { plain, voiceTty } from './tty.js';

const hf = fileHarness();
const LONG = 'Reception and after-hours overflow line'.padEnd(40, 'x');

async function setUp(): Promise<{ assistant: string; call: string }> {
  const assistant = json<{ id: string }>(await hf.current.voice(['assistant', 'create', '--set', `name=${LONG}`, '--set', 'model.provider=openai', '--set', 'model.model=gpt-4o', '--json'])).id;
  const call = json<{ id: string }>(await hf.current.voice(['call', 'web', '--set', `assistantId=${assistant}`, '--json'])).id;
  return { assistant, call };
}

const rowsOf = (stdout: string): string[] =>
  plain(stdout)
    .split('\n')
    .filter((l) => l.trim() !== '');

describe('tables keep the id', () => {
  it('shrinks other columns, never the id, on narrow terminals', async () => {
    const { assistant, call } = await setUp();
    for (const columns of [60, 80]) {
      const calls = await voiceTty(hf.current.env, ['call', 'list'], { columns });
      expect(calls.exitCode, calls.stderr).toBe(0);
      expect(rowsOf(calls.stdout).find((l) => l.includes(call.slice(0, 8)))).toContain(call);
      const assistants = await voiceTty(hf.current.env, ['assistant', 'list'], { columns });
      const row = rowsOf(assistants.stdout).find((l) => l.includes(assistant.slice(0, 8))) as string;
      expect(row).toContain(assistant);
      expect(row).toContain('…');
      expect(Math.max(...rowsOf(assistants.stdout).map((l) => l.length))).toBeLessThanOrEqual(columns);
    }
    const narrow = await voiceTty(hf.current.env, ['assistant', 'list'], { columns: 44 });
    const lines = rowsOf(narrow.stdout);
    expect(lines.find((l) => l.includes(assistant.slice(0, 8)))).toContain(assistant);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toMatch(/left out to fit .*--wide shows all/);
  });

  it('--wide shows every cell whole; --columns picks, on a terminal and piped', async () => {
    const { assistant } = await setUp();
    const wide = await voiceTty(hf.current.env, ['assistant', 'list', '--wide'], { columns: 60 });
    expect(wide.exitCode, wide.stderr).toBe(0);
    expect(plain(wide.stdout)).toContain(LONG);
    expect(plain(wide.stdout)).toMatch(/MODEL PROVIDER/);

    const picked = await voiceTty(hf.current.env, ['assistant', 'list', '--columns', 'id,model.provider'], { columns: 60 });
    const lines = rowsOf(picked.stdout);
    expect(lines[0]).toMatch(/^ID\s+MODEL PROVIDER$/);
    expect(lines.find((l) => l.includes(assistant))).toMatch(new RegExp(`^${assistant}\\s+openai$`));

    const piped = await hf.current.voice(['assistant', 'list', '--columns', 'name,id']);
    expect(piped.stdout.split('\n')).toContain(`${LONG}\t${assistant}`);
  });
});
