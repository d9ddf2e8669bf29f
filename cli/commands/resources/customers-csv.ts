// `--customers-csv leads.csv` on `voice campaign create`: the platform dashboard's contact CSV (a
// lowercase `number` column, an optional `name`, every other filled cell a dynamic variable for
// that contact) read into `customers`. Every bad row is named by its line and nothing is sent.
import { readFileSync } from 'node:fs';
import type { Entry } from '#core/catalogue/index';
import { usageError } from '../../errors.js';

/** The most contacts one campaign takes (the dashboard's CSV limit). */
export const MAX_ROWS = 10_000;
/** The dashboard's limits on a contact's number (after normalising) and name. */
const NUMBER = { min: 3, max: 40 };
const MAX_NAME = 40;
/** Bad rows listed before the rest are counted. */
const SHOWN = 20;

/** A customer of the campaign body (`CreateCustomerDTO`). */
export interface CsvCustomer {
  number: string;
  name?: string;
  assistantOverrides?: { variableValues: Record<string, string> };
  squadOverrides?: { variableValues: Record<string, string> };
}

/** Whether an operation takes `--customers-csv` (creating a campaign, v1 or v2). */
export function takesCustomersCsv(entry: Entry): boolean {
  return entry.action === 'create' && entry.resource[entry.resource.length - 1] === 'campaign';
}

/** The number as the dashboard keeps it: without parentheses, spaces, dashes and single quotes. */
export function normaliseNumber(raw: string): string {
  return raw.replace(/[()\s\-']/g, '');
}

function numberProblem(raw: string): string | undefined {
  if (!raw.trim()) return 'has no number';
  const number = normaliseNumber(raw);
  if (!/^\+?\d+$/.test(number)) return `has a number that is not a phone number: ${JSON.stringify(raw)}`;
  if (number.length < NUMBER.min || number.length > NUMBER.max) return `has a number of ${number.length} characters (${NUMBER.min} to ${NUMBER.max} allowed): ${JSON.stringify(raw)}`;
  return undefined;
}

/** Parses contact CSV text; throws a usage error listing every bad row by its line (`file` names it). */
export async function parseCustomersCsv(text: string, file: string, squad = false): Promise<CsvCustomer[]> {
  const loaded = await import('csv-parse/sync');
  const { parse } = typeof loaded.parse === 'function' ? loaded : (loaded as unknown as { default: typeof loaded }).default;
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text.replace(/^\uFEFF/, ''), { info: true, skip_empty_lines: true, relax_column_count: true }) as never;
  } catch (err) {
    throw usageError(`${file} is not valid CSV: ${(err as Error).message}`);
  }
  const [head, ...body] = rows;
  const columns = (head?.record ?? []).map((c) => c.trim());
  const at = columns.indexOf('number');
  if (at < 0)
    throw usageError(
      `${file} has no "number" column on its first line (found: ${columns.map((c) => JSON.stringify(c)).join(', ') || 'nothing'})`,
      'The header must name a lowercase number column; name and any other columns are optional.',
    );
  if (body.length > MAX_ROWS) throw usageError(`${file} has ${body.length} contacts: a campaign takes at most ${MAX_ROWS}`);
  const problems: string[] = [];
  const customers: CsvCustomer[] = [];
  for (const { record, info } of body) {
    const line = `line ${info.lines}`;
    const cells = columns.map((_, i) => record[i] ?? '');
    if (record.length > columns.length) problems.push(`${line} has ${record.length} cells but the header names ${columns.length} columns`);
    const wrong = numberProblem(cells[at] as string);
    if (wrong) problems.push(`${line} ${wrong}`);
    const name = cells[columns.indexOf('name')]?.trim();
    if (name && name.length > MAX_NAME) problems.push(`${line} has a name of ${name.length} characters (at most ${MAX_NAME})`);
    const variables: Record<string, string> = {};
    columns.forEach((column, i) => {
      if (column !== 'number' && column !== 'name' && cells[i] !== '') variables[column] = cells[i] as string;
    });
    const customer: CsvCustomer = { number: normaliseNumber(cells[at] as string), ...(name ? { name } : {}) };
    if (Object.keys(variables).length) customer[squad ? 'squadOverrides' : 'assistantOverrides'] = { variableValues: variables };
    customers.push(customer);
  }
  if (problems.length) {
    const more = problems.length > SHOWN ? `\n  …and ${problems.length - SHOWN} more` : '';
    throw usageError(`${file}: ${problems.length} bad row${problems.length === 1 ? '' : 's'}, nothing was sent:\n  ${problems.slice(0, SHOWN).join('\n  ')}${more}`);
  }
  if (!customers.length) throw usageError(`${file} has a header but no contacts`);
  return customers;
}

/** Reads a contact CSV file into `customers` (see `parseCustomersCsv`). */
export async function readCustomersCsv(file: string, squad = false): Promise<CsvCustomer[]> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw usageError(`Cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder' : (e as Error).message}`);
  }
  return parseCustomersCsv(text, file, squad);
}
