// Uploads refused as the platform refuses them (a form's fields are checked against the published
// schema like a JSON body), and v2 knowledge-base files named by either id, through `voice`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileHarness, json } from './harness.js';

const h = fileHarness();
const dir = mkdtempSync(join(tmpdir(), 'voice-uploads-'));
const upload = join(dir, 'faq.txt');
writeFileSync(upload, 'Opening hours: 9 to 5.\n');

describe('POST /file', () => {
  it('refuses a purpose outside its enum with a 400 naming purpose; stores nothing', async () => {
    const bad = await h.current.voice(['file', 'create', upload, '--set', 'purpose=nonsense', '--json']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('400');
    expect(bad.stderr).toMatch(/purpose must be one of the following values: assistant, composer-attachment, knowledge-base-v2/);
    expect(json<unknown[]>(await h.current.voice(['file', 'list', '--json']))).toEqual([]);
    const good = await h.current.voice(['file', 'create', upload, '--set', 'purpose=knowledge-base-v2', '--json']);
    expect(good.exitCode, good.stderr).toBe(0);
    expect(json(good)).toMatchObject({ name: 'faq.txt', purpose: 'knowledge-base-v2' });
  });

  it('checks every form field against the schema: an unknown field and an over-long metadata are refused too', async () => {
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.txt');
    form.append('colour', 'blue');
    form.append('metadata', 'm'.repeat(5000));
    const res = await fetch(`${h.current.emu.url}/file`, { method: 'POST', headers: { authorization: `Bearer ${h.current.env.VOICE_API_KEY}` }, body: form });
    expect(res.status).toBe(400);
    const { message } = (await res.json()) as { message: string[] };
    expect(message).toEqual(expect.arrayContaining(['property colour should not exist', expect.stringMatching(/^metadata must be shorter than or equal to 4096 characters/)]));
  });
});

describe('v2 knowledge-base files', () => {
  it('retry and detach take the attachment record id or the file id alike', async () => {
    const file = json<{ id: string }>(await h.current.voice(['file', 'create', upload, '--json']));
    const kb = json<{ id: string }>(await h.current.voice(['v2', 'knowledge-base', 'create', '--set', 'name=Help', '--json']));
    const attached = json<{ id: string; fileId: string }>(await h.current.voice(['v2', 'knowledge-base', 'file', 'create', kb.id, '--set', `fileId=${file.id}`, '--json']));
    expect(attached.fileId).toBe(file.id);
    expect(attached.id).not.toBe(file.id);
    for (const id of [attached.id, file.id]) {
      const retried = await h.current.voice(['v2', 'knowledge-base', 'file', 'retry', kb.id, id, '--json']);
      expect(retried.exitCode, `${id}: ${retried.stderr}`).toBe(0);
      expect(json(retried)).toMatchObject({ id: attached.id, status: 'ready' });
    }
    const detached = await h.current.voice(['v2', 'knowledge-base', 'file', 'delete', kb.id, file.id, '--yes', '--json']);
    expect(detached.exitCode, detached.stderr).toBe(0);
    expect(json(detached)).toMatchObject({ id: attached.id });
    const again = await h.current.voice(['v2', 'knowledge-base', 'file', 'delete', kb.id, attached.id, '--yes']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('404');
  });
});
