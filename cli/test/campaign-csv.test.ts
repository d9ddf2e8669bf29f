// `voice campaign create --customers-csv` through the built CLI: a good file becomes the campaign's
// customers (and it dials them); a file with a bad number is refused by its line and creates nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileHarness, json } from './harness.js';

const hf = fileHarness({ speed: 400 });

describe('voice campaign create --customers-csv', () => {
  it('refuses a file with a bad number, naming its line, and creates nothing', async () => {
    const file = join(hf.current.home, 'bad.csv');
    writeFileSync(file, 'number,name,tier\n+14155550100,Ada,gold\n+1415555CALL,Bob,silver\n');
    const run = await hf.current.voice(['campaign', 'create', '--set', 'name=Leads', '--set', 'phoneNumberId=p1', '--customers-csv', file]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('line 3 has a number that is not a phone number: "+1415555CALL"');
    expect(run.stderr).toContain('nothing was sent');
    expect(run.stderr).not.toMatch(/at .*\.js:\d+/);
    const listed = json<{ results: unknown[] }>(await hf.current.voice(['campaign', 'list', '--json']));
    expect(listed.results).toEqual([]);
    expect(hf.current.emu.record.list().filter((e) => e.kind === 'request' && e.method === 'POST')).toEqual([]);
  });

  it('sends the rows as customers with their variables, and the campaign dials them', async () => {
    const number = json<{ id: string }>(await hf.current.voice(['phone-number', 'create', '--set', 'provider=vapi', '--json']));
    const file = join(hf.current.home, 'leads.csv');
    writeFileSync(file, 'number,name,tier\n+14155550100,Ada,gold\n"+1 (415) 555-0101",Sam,\n');
    const run = await hf.current.voice(['v2', 'campaign', 'create', '--set', 'name=Leads', '--set', `phoneNumberId=${number.id}`, '--customers-csv', file, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const campaign = json<{ id: string; customers: unknown[] }>(run);
    expect(campaign.customers).toEqual([
      { number: '+14155550100', name: 'Ada', assistantOverrides: { variableValues: { tier: 'gold' } } },
      { number: '+14155550101', name: 'Sam' },
    ]);
    await hf.current.emu.campaigns.finished(campaign.id);
    // Dialled, and failed at the start as the platform's calls do with no assistant named.
    const contacts = json<{ results: { status: string; callId?: string }[] }>(await hf.current.voice(['v2', 'campaign', 'contacts', campaign.id, '--json']));
    expect(contacts.results.map((c) => c.status)).toEqual(['contact.failed', 'contact.failed']);
    expect(contacts.results.every((c) => c.callId)).toBe(true);
  });
});
