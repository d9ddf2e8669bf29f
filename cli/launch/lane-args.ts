// Budget: `voice assistant list --json` start to exit <= 1.35x `node -e 0` (and the Ink table on a
// terminal <= 2.5x). Measured gain of the fast lane: 1.66x -> 1.24x; 698 M -> 599 M instructions (callgrind).
// Recognises a command line the fast lane can run: `voice <resource...> <read> [values...]` with
// only the global options that shape a read (--json, --local, --api-url, --api-key, --profile,
// --no-color), read by the CLI's one tokenizer (cli/argv/tokens.ts). Anything else is left to the full CLI.
import { tokens } from '../argv/tokens.js';
import type { ReadOp, ReadOps } from './read-ops.js';

/** The global options a fast read accepts, as commander would set them. */
export interface FastOptions {
  json?: boolean;
  local?: boolean;
  color?: boolean;
  profile?: string;
  apiUrl?: string;
  apiKey?: string;
}

/** A read the fast lane can run. */
export interface ReadCall {
  read: ReadOp;
  pathValues: string[];
  opts: FastOptions;
}

const SWITCHES: Record<string, Partial<FastOptions>> = { '--json': { json: true }, '--local': { local: true }, '--no-color': { color: false } };
const VALUES: Record<string, 'profile' | 'apiUrl' | 'apiKey'> = { '--profile': 'profile', '--api-url': 'apiUrl', '--api-key': 'apiKey' };

/** The read an argv names, or undefined when the full CLI must run it (help, other flags, usage errors...). */
export function parseRead(argv: readonly string[], ops: ReadOps): ReadCall | undefined {
  const words: string[] = [];
  // commander's defaults: colour on unless --no-color.
  const opts: FastOptions = { color: true };
  for (const t of tokens(argv, (name) => (name in VALUES ? 'required' : 'none'))) {
    // `--` and a lone `-` (stdin where a command reads a file) are the full CLI's.
    if (t.kind === 'end' || (t.kind === 'word' && t.text === '-')) return undefined;
    if (t.kind === 'word') {
      words.push(t.text);
      continue;
    }
    const switched = SWITCHES[t.name];
    if (switched && !t.inline) {
      Object.assign(opts, switched);
      continue;
    }
    const attr = VALUES[t.name];
    // An unknown flag, a missing value, or one that looks like a flag, is the full CLI's to judge.
    if (!attr || t.value === undefined || (!t.inline && t.value.startsWith('-'))) return undefined;
    opts[attr] = t.value;
  }
  for (let n = words.length; n >= 2; n--) {
    const read = ops[words.slice(0, n).join(' ')];
    if (!read) continue;
    // Too few or too many values: commander's usage error, from the full CLI.
    return read.params === words.length - n ? { read, pathValues: words.slice(n), opts } : undefined;
  }
  return undefined;
}
