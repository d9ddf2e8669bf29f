// Configuration as code through the real CLI against a fresh emulator: plan, apply, edit, pull,
// prune, bad files, a failed apply that the next one resumes, and the starter resources.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './build.js';
import { fileHarness, json } from './harness.js';
import type { Run } from './harness.js';
import { plain, voiceTty } from './tty.js';

const hf = fileHarness();

const lastLine = (run: Run): string => run.stdout.trimEnd().split('\n').pop() as string;
const summary = (c: number, u: number, d: number): string => `Plan: ${c} to create, ${u} to update, ${d} to delete.`;

function write(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

const PROMPT = '# Who you are\n\nYou answer the phone for a small shop.\n\n- Be brief.\n';
const FILES: Record<string, string> = {
  'tools/lookup-order.yml':
    'type: function\nfunction:\n  name: lookup_order\n  parameters:\n    type: object\n    properties:\n      orderNumber:\n        type: string\nserver:\n  url: https://shop.example/orders\n',
  'structuredOutputs/order-status.yml': 'name: Order status\ntype: ai\nschema:\n  type: object\n  properties:\n    status:\n      type: string\n',
  'assistants/front-desk.md': `---\nname: Front desk\nfirstMessage: Thanks for calling!\nmodel:\n  provider: openai\n  model: gpt-4o\n  temperature: 0.3\n  toolIds:\n    - lookup-order\nartifactPlan:\n  structuredOutputIds:\n    - order-status\n---\n\n${PROMPT}`,
  'squads/support.yml': 'name: Support\nmembers:\n  - assistantId: front-desk\n',
};

async function count(resource: string): Promise<number> {
  const run = await hf.current.voice([resource, 'list', '--json', '--limit', '1000']);
  expect(run.exitCode, run.stderr).toBe(0);
  const data = json<unknown>(run);
  return (Array.isArray(data) ? data : (data as { results: unknown[] }).results).length;
}

function stateOf(dir: string): Record<string, Record<string, { uuid: string }>> {
  const name = readdirSync(dir).find((f) => f.startsWith('.voice-state.')) as string;
  expect(name).toMatch(/^\.voice-state\.default\.127\.0\.0\.1-\d+\.json$/);
  return JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, Record<string, { uuid: string }>>;
}

describe('voice plan / apply / pull', () => {
  it('walks the whole loop: plan, apply, plan nothing, edit, update in place, pull, prune', async () => {
    const v = hf.current.voice;
    const dir = join(hf.current.home, 'walk');
    write(dir, FILES);

    const first = await v(['plan', '--dir', 'walk']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(lastLine(first)).toBe(summary(4, 0, 0));
    expect(first.stdout).toContain('+ create  assistants/front-desk');

    const refused = await v(['apply', '--dir', 'walk']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(await count('assistant')).toBe(0);

    const applied = await v(['apply', '--dir', 'walk', '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Applied: 4 created, 0 updated, 0 deleted.');
    const state = stateOf(dir);
    const uuid = state.assistants?.['front-desk']?.uuid as string;
    const got = json<{ model: { toolIds: string[]; messages: { role: string; content: string }[] }; artifactPlan: { structuredOutputIds: string[] } }>(await v(['assistant', 'get', uuid, '--json']));
    expect(got.model.toolIds).toEqual([state.tools?.['lookup-order']?.uuid]);
    expect(got.artifactPlan.structuredOutputIds).toEqual([state.structuredOutputs?.['order-status']?.uuid]);
    expect(got.model.messages[0]).toEqual({ role: 'system', content: PROMPT.trim() });
    const squad = json<{ members: { assistantId: string }[] }>(await v(['squad', 'get', state.squads?.support?.uuid as string, '--json']));
    expect(squad.members[0]?.assistantId).toBe(uuid);

    expect(lastLine(await v(['plan', '--dir', 'walk']))).toBe(summary(0, 0, 0));

    const md = join(dir, 'assistants/front-desk.md');
    writeFileSync(md, readFileSync(md, 'utf8').replace('temperature: 0.3', 'temperature: 0.7').replace('- Be brief.', '- Be brief.\n- Never guess an order number.'));
    const edited = await v(['plan', '--dir', 'walk']);
    expect(lastLine(edited)).toBe(summary(0, 1, 0));
    expect(edited.stdout).toContain(`~ update  assistants/front-desk  ${uuid}`);
    expect(edited.stdout).toContain('~ model.temperature: 0.3 → 0.7');
    expect(edited.stdout).toContain('+ - Never guess an order number.');
    const asJson = json<{ counts: { update: number }; items: { action: string; changes?: { path: string }[] }[] }>(await v(['plan', '--dir', 'walk', '--json']));
    expect(asJson.counts.update).toBe(1);
    expect(
      asJson.items
        .find((i) => i.action === 'update')
        ?.changes?.map((c) => c.path)
        .sort(),
    ).toEqual(['model.messages[0].content', 'model.temperature']);

    expect((await v(['apply', '--dir', 'walk', '--yes'])).exitCode).toBe(0);
    const after = json<{ id: string; model: { temperature: number } }>(await v(['assistant', 'get', uuid, '--json']));
    expect(after.model.temperature).toBe(0.7);
    expect(await count('assistant')).toBe(1);
    expect(lastLine(await v(['plan', '--dir', 'walk']))).toBe(summary(0, 0, 0));

    const pulled = await v(['pull', '--dir', 'copy']);
    expect(pulled.exitCode, pulled.stderr).toBe(0);
    const copy = join(hf.current.home, 'copy');
    const pulledMd = readFileSync(join(copy, 'assistants/front-desk.md'), 'utf8');
    expect(pulledMd).toContain('- lookup-order');
    expect(pulledMd).toContain('Never guess an order number.');
    expect(pulledMd).not.toContain(uuid);
    expect(readFileSync(join(copy, 'squads/support.yml'), 'utf8')).toBe('name: Support\nmembers:\n  - assistantId: front-desk\n');
    expect(lastLine(await v(['plan', '--dir', 'copy']))).toBe(summary(0, 0, 0));
    expect((await v(['pull', '--dir', 'copy'])).stdout).toBe('');

    rmSync(join(copy, 'squads/support.yml'));
    const kept = await v(['plan', '--dir', 'copy']);
    expect(lastLine(kept)).toBe(summary(0, 0, 0));
    expect(kept.stdout).toContain('--prune deletes them');
    expect(kept.stdout).toContain('squads/support');
    const pruning = await v(['plan', '--dir', 'copy', '--prune']);
    expect(lastLine(pruning)).toBe(summary(0, 0, 1));
    expect(pruning.stdout).toContain('- delete  squads/support');
    expect(await count('squad')).toBe(1);
    const pruned = await v(['apply', '--dir', 'copy', '--prune', '--yes']);
    expect(pruned.exitCode, pruned.stderr).toBe(0);
    expect(await count('squad')).toBe(0);
    expect(lastLine(await v(['plan', '--dir', 'copy', '--prune']))).toBe(summary(0, 0, 0));
  }, 120_000); // about 25 processes one after another: past 30 s on a loaded machine

  it('refuses broken references, duplicate ids, unknown types and YAML errors with exit 2, file and line, sending nothing', async () => {
    const v = hf.current.voice;
    const before = [await count('assistant'), await count('tool')];
    const cases: [Record<string, string>, RegExp][] = [
      [{ 'assistants/a.md': '---\nname: A\nmodel:\n  provider: openai\n  model: gpt-4o\n  toolIds:\n    - nope\n---\nHi\n' }, /assistants\/a\.md:7:7: model\.toolIds\[0\]: unknown reference "nope"/],
      [{ 'tools/t.yml': 'type: function\n', 'tools/t.json': '{"type": "function"}' }, /tools\/t\.yml:1:1: duplicate id "t": tools\/t\.json/],
      [{ 'tools/t.yml': 'type: fax\n' }, /tools\/t\.yml:1:7: type "fax" is not a known tool type/],
      [{ 'tools/ok.yml': 'type: function\n', 'squads/s.yml': 'name: S\nmembers:\n  - assistantId: [unclosed\n' }, /squads\/s\.yml:\d+:\d+: /],
    ];
    for (const [i, [files, expected]] of cases.entries()) {
      write(join(hf.current.home, `bad${i}`), files);
      for (const cmd of ['plan', 'apply']) {
        const run = await v([cmd, '--dir', `bad${i}`, '--yes']);
        expect(run.exitCode, `${cmd} bad${i}: ${run.stderr}`).toBe(2);
        expect(run.stderr).toMatch(expected);
        expect(run.stderr).not.toMatch(/at .*\.js:\d+/);
      }
      expect(existsSync(join(hf.current.home, `bad${i}`, '.voice-state.default.127.0.0.1-' + new URL(hf.current.emu.url).port + '.json'))).toBe(false);
    }
    expect([await count('assistant'), await count('tool')]).toEqual(before);
    const missing = await v(['plan', '--dir', 'no-such-dir']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('No resources directory at no-such-dir');
  });

  it('stops at a failing request, says what was done, and the next apply resumes', async () => {
    // Files that fit the schemas can still be refused by the account (a limit reached): a proxy in
    // front of the emulator refuses squad creates while `refuse` is set.
    let refuse = true;
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (refuse && req.method === 'POST' && req.url === '/squad') {
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: ['Squad limit reached'], error: 'Bad Request', statusCode: 400 }));
          return;
        }
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        void fetch(`${hf.current.emu.url}${req.url}`, { method: req.method, headers: { 'content-type': 'application/json', authorization: String(req.headers.authorization) }, body }).then(
          async (r) => {
            res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await r.arrayBuffer()));
          },
        );
      });
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    const env = { VOICE_API_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` };
    const v = (args: string[]): Promise<Run> => hf.current.voice(args, { env });
    const dir = join(hf.current.home, 'partial');
    write(dir, {
      'assistants/greeter.yml': 'name: Greeter\nfirstMessage: Hello\n',
      'squads/team.yml': 'name: Team\nmembers:\n  - assistantId: greeter\n',
    });
    const failed = await v(['apply', '--dir', 'partial', '--yes']);
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toMatch(/Apply stopped: create squads\/team failed: 400/);
    expect(failed.stderr).toContain('created assistants/greeter');
    expect(failed.stderr).toContain('run `voice apply` again');
    const greeter = stateOf(dir).assistants?.greeter?.uuid as string;
    expect(greeter).toBeTruthy();

    refuse = false;
    const resumed = await v(['apply', '--dir', 'partial', '--yes']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('Applied: 1 created, 0 updated, 0 deleted.');
    expect(stateOf(dir).assistants?.greeter?.uuid).toBe(greeter);
    await new Promise((done) => proxy.close(done));
  });

  it('pull keeps files edited locally unless --force, and pulls only the types named', async () => {
    const v = hf.current.voice;
    const first = await v(['pull', 'squads', 'tools', '--dir', 'local']);
    expect(first.exitCode, first.stderr).toBe(0);
    const dir = join(hf.current.home, 'local');
    expect(existsSync(join(dir, 'assistants'))).toBe(false);
    const file = readdirSync(join(dir, 'tools'))[0] as string;
    const path = join(dir, 'tools', file);
    const pulled = readFileSync(path, 'utf8');
    writeFileSync(path, `${pulled}# my note\n`);
    const again = await v(['pull', 'tools', '--dir', 'local']);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain(`kept tools/${file}: edited locally`);
    expect(readFileSync(path, 'utf8')).toContain('# my note');
    const forced = await v(['pull', 'tools', '--dir', 'local', '--force']);
    expect(forced.stdout).toContain(`wrote tools/${file}`);
    expect(readFileSync(path, 'utf8')).toBe(pulled);
    const unknown = await v(['pull', 'widgets', '--dir', 'local']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('Unknown type widgets');
  });

  it("plans and applies the platform gitops repository's starter layout", async () => {
    const v = hf.current.voice;
    const dir = join(hf.current.home, 'starter');
    cpSync(join(ROOT, 'fixtures/gitops/starter'), dir, { recursive: true });
    const planned = await v(['plan', '--dir', 'starter']);
    expect(planned.exitCode, planned.stderr).toBe(0);
    expect(lastLine(planned)).toBe(summary(13, 0, 0));
    const applied = await v(['apply', '--dir', 'starter', '--yes', '--json']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(json<{ done: unknown[] }>(applied).done).toHaveLength(13);
    expect(lastLine(await v(['plan', '--dir', 'starter']))).toBe(summary(0, 0, 0));
    // The structured output and the assistant name each other: the second pass filled it in.
    const state = stateOf(dir);
    const so = json<{ assistantIds: string[] }>(await v(['structured-output', 'get', state.structuredOutputs?.['call-outcome']?.uuid as string, '--json']));
    expect(so.assistantIds).toEqual([state.assistants?.receptionist?.uuid]);
    const sim = json<{ personalityId: string }>(await v(['eval', 'simulation', 'get', state.simulations?.['impatient-books-checkup']?.uuid as string, '--json']));
    expect(sim.personalityId).toBe(state.personalities?.['impatient-caller']?.uuid);
  });

  it('four applies at once on one directory keep every entry in the state file', async () => {
    const v = hf.current.voice;
    const dir = join(hf.current.home, 'together');
    const names = ['a', 'b', 'c', 'd'];
    write(dir, Object.fromEntries(names.map((n) => [`tools/${n}.yml`, 'type: endCall\n'])));
    const runs = await Promise.all(names.map((n) => v(['apply', `tools/${n}.yml`, '--dir', 'together', '--yes'])));
    for (const run of runs) expect(run.exitCode, run.stderr).toBe(0);
    expect(Object.keys(stateOf(dir).tools ?? {}).sort()).toEqual(names);
    expect(lastLine(await v(['plan', '--dir', 'together']))).toBe(summary(0, 0, 0));
  });

  it("says when a change (a tool's type) can only be made by creating a new resource", async () => {
    const v = hf.current.voice;
    const dir = join(hf.current.home, 'retype');
    write(dir, { 'tools/t.yml': 'type: endCall\n' });
    expect((await v(['apply', '--dir', 'retype', '--yes'])).exitCode).toBe(0);
    write(dir, { 'tools/t.yml': 'type: dtmf\n' });
    const run = await v(['plan', '--dir', 'retype']);
    expect(run.stdout).toContain('type can only be set on create: give the file a new name to create a new tool');
  });

  it('creates again what was deleted behind its back, and points the files that use it at the new one', async () => {
    const v = hf.current.voice;
    const dir = join(hf.current.home, 'gone');
    write(dir, { 'tools/bye.yml': 'type: endCall\n', 'assistants/a.yml': 'name: A\nmodel:\n  provider: openai\n  model: gpt-4o\n  toolIds: [bye]\n' });
    expect((await v(['apply', '--dir', 'gone', '--yes'])).exitCode).toBe(0);
    const old = stateOf(dir).tools?.bye?.uuid as string;
    expect((await v(['tool', 'delete', old, '--yes'])).exitCode).toBe(0);
    const planned = await v(['plan', '--dir', 'gone']);
    expect(lastLine(planned)).toBe(summary(1, 1, 0));
    expect(planned.stdout).toContain(`${old} is gone from the account`);
    expect((await v(['apply', '--dir', 'gone', '--yes'])).exitCode).toBe(0);
    const state = stateOf(dir);
    expect(state.tools?.bye?.uuid).not.toBe(old);
    const a = json<{ model: { toolIds: string[] } }>(await v(['assistant', 'get', state.assistants?.a?.uuid as string, '--json']));
    expect(a.model.toolIds).toEqual([state.tools?.bye?.uuid]);
    expect(lastLine(await v(['plan', '--dir', 'gone']))).toBe(summary(0, 0, 0));
  });

  it('asks on a terminal before applying', async () => {
    const dir = join(hf.current.home, 'tty');
    write(dir, { 'tools/hang-up.yml': 'type: endCall\n' });
    const run = await voiceTty(hf.current.env, ['apply', '--dir', join(dir)], { input: 'y\r', after: 'Type y to confirm' });
    expect(run.exitCode, run.stdout).toBe(0);
    expect(plain(run.stdout)).toContain('Applied: 1 created');
  });
});
