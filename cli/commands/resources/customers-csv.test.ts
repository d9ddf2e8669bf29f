// The dashboard's contact CSV read into a campaign's customers: columns, variables, and every bad
// row named by its line.
import { describe, expect, it } from 'vitest';
import { normaliseNumber, parseCustomersCsv } from './customers-csv.js';

describe('contact CSV', () => {
  it('reads number, name and every other filled column as a variable of that contact', async () => {
    const text = 'number,name,account_tier,appointment date\n+14155550100,Ada,premium,August 21\n(415) 555-0101,Sam,,\n';
    expect(await parseCustomersCsv(text, 'leads.csv')).toEqual([
      { number: '+14155550100', name: 'Ada', assistantOverrides: { variableValues: { account_tier: 'premium', 'appointment date': 'August 21' } } },
      { number: '4155550101', name: 'Sam' },
    ]);
    expect((await parseCustomersCsv('number,tier\n+14155550100,gold\n', 'x.csv', true))[0]).toEqual({ number: '+14155550100', squadOverrides: { variableValues: { tier: 'gold' } } });
  });

  it('keeps quoted cells whole (commas, quotes, a line break) and counts lines as the file has them', async () => {
    const text = 'number,name,note\n+14155550100,"Lovelace, Ada","said ""hi""\nthen left"\nnot-a-number,Bob,\n';
    await expect(parseCustomersCsv(text, 'leads.csv')).rejects.toThrow(/line 4 has a number that is not a phone number: "not-a-number"/);
  });

  it('refuses every bad row at once, by line, and a file without a number column', async () => {
    const text = 'number,name\n+14155550100,Ada\n12,Tiny\n\n,Nobody\n+1 415 555 0103,' + 'x'.repeat(41) + '\n';
    const err = await parseCustomersCsv(text, 'leads.csv').catch((e: Error & { exitCode?: number }) => e);
    expect((err as { exitCode?: number }).exitCode).toBe(2);
    expect((err as Error).message).toBe(
      'leads.csv: 3 bad rows, nothing was sent:\n  line 3 has a number of 2 characters (3 to 40 allowed): "12"\n  line 5 has no number\n  line 6 has a name of 41 characters (at most 40)',
    );
    await expect(parseCustomersCsv('Number,Name\n+14155550100,Ada\n', 'leads.csv')).rejects.toThrow(/no "number" column on its first line \(found: "Number", "Name"\)/);
    await expect(parseCustomersCsv('number\n', 'leads.csv')).rejects.toThrow(/a header but no contacts/);
  });

  it('normalises numbers as the dashboard does', () => {
    expect(normaliseNumber("'+1 (415) 555-0100")).toBe('+14155550100');
  });
});
