// Reads an exported Artillery script and its call list the way Artillery plays them: each virtual
// user takes the next row of the list and runs each loop of the one scenario as often as the
// row's column says, so the requests per message type can be counted without Artillery.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';

interface Step {
  post?: { url: string; name: string; json: unknown };
  think?: number;
}

interface Script {
  config: { target: string; phases: { arrivalCount?: number; pause?: number }[]; payload: { path: string; fields: string[]; order: string; skipHeader: boolean }[] };
  scenarios: { flow: { loop: Step[]; count: string }[] }[];
}

/** What an exported script makes when played once. */
export interface Played {
  target: string;
  /** Virtual users the phases start. */
  arrivals: number;
  /** Calls of each kind in the call list. */
  kinds: Record<string, number>;
  /** Requests per message type. */
  perType: Record<string, number>;
  /** Every request path. */
  urls: string[];
  /** The call list's rows, by column. */
  rows: Record<string, string>[];
  doc: Script;
}

/** RFC 4180 rows: quoted fields may hold commas, doubled quotes and line breaks. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') cell += text[++i];
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',' || c === '\n') {
      row.push(cell);
      cell = '';
      if (c === '\n') {
        rows.push(row);
        row = [];
      }
    } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

/** Plays `file` on paper. */
export function artilleryScript(file: string): Played {
  const doc = parse(readFileSync(file, 'utf8')) as Script;
  const [payload] = doc.config.payload;
  if (!payload || doc.config.payload.length !== 1 || payload.order !== 'sequence' || !payload.skipHeader) throw new Error('expected one call list read in sequence');
  const [header, ...body] = csvRows(readFileSync(join(dirname(file), payload.path), 'utf8'));
  if (header?.join(',') !== payload.fields.join(',')) throw new Error(`the call list's header is not ${payload.fields.join(',')}`);
  const rows = body.map((cells) => Object.fromEntries(payload.fields.map((f, i) => [f, cells[i] ?? ''])));
  const arrivals = doc.config.phases.reduce((n, p) => n + (p.arrivalCount ?? 0), 0);
  if (doc.scenarios.length !== 1) throw new Error('expected one scenario');
  const perType: Record<string, number> = {};
  const kinds: Record<string, number> = {};
  const urls = new Set<string>();
  // Virtual users take rows in order, one each.
  for (const row of rows.slice(0, arrivals)) {
    for (const { loop, count } of (doc.scenarios[0] as Script['scenarios'][number]).flow) {
      const column = /^\{\{ (\w+) \}\}$/.exec(count)?.[1] as string;
      const times = Number(row[column]);
      if (times) kinds[column] = (kinds[column] ?? 0) + 1;
      for (let i = 0; i < times; i++)
        for (const step of loop)
          if (step.post) {
            perType[step.post.name] = (perType[step.post.name] ?? 0) + 1;
            urls.add(step.post.url);
          }
    }
  }
  return { target: doc.config.target, arrivals, kinds, perType, urls: [...urls], rows, doc };
}
