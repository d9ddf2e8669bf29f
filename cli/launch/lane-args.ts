// Budget: `voice assistant list --json` start to exit <= 1.35x `node -e 0` (and the Ink table on a
// terminal <= 2.5x). Measured gain of the fast lane: 1.66x -> 1.24x; 698 M -> 599 M instructions (callgrind).
// Recognises a command line the fast lane can run: `voice <resource...> <read> [values...]` with
// only the global options that shape a read (--json, --local, --api-url, --api-key, --profile,
// --no-color), parsed as commander parses them. Anything else is left to the full CLI.
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
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('-')) {
      words.push(arg);
      continue;
    }
    const switched = SWITCHES[arg];
    if (switched) {
      Object.assign(opts, switched);
      continue;
    }
    const eq = arg.indexOf('=');
    const attr = VALUES[eq > 0 ? arg.slice(0, eq) : arg];
    if (!attr) return undefined;
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    // A missing value, or one that looks like a flag, is the full CLI's to judge.
    if (value === undefined || (eq < 0 && value.startsWith('-'))) return undefined;
    opts[attr] = value;
  }
  for (let n = words.length; n >= 2; n--) {
    const read = ops[words.slice(0, n).join(' ')];
    if (!read) continue;
    // Too few or too many values: commander's usage error, from the full CLI.
    return read.params === words.length - n ? { read, pathValues: words.slice(n), opts } : undefined;
  }
  return undefined;
}
