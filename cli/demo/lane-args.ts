// Budget: `voice demo` to page served <= 0.95x plain Vite warm, <= 1.1x cold. Measured gain of the
// demo's fast lane: about 15 ms a start (warm 0.91x, cold 0.99x with the Vite script).
// Recognises a plain `voice demo` command line for the fast lane: `demo` first, then only the
// demo's own options (cli/demo/options.ts) and the global options it reads (--api-key,
// --profile, --local, --no-color, --verbose), parsed as commander parses them. Help, `demo build`,
// other flags, bad values and anything unusual are left to the full CLI and its messages.
import { DEMO_OPTIONS, flagName, type DemoCliOptions } from './options.js';
import type { DemoGlobals } from './run.js';

/** A `voice demo` run the fast lane can start. */
export interface DemoCall {
  opts: DemoCliOptions;
  globals: DemoGlobals;
  color: boolean;
  verbose: boolean;
}

const GLOBAL_VALUES: Record<string, 'apiKey' | 'profile'> = { '--api-key': 'apiKey', '--profile': 'profile' };

/** The demo run an argv names, or undefined when the full CLI must handle it. */
export function parseDemo(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): DemoCall | undefined {
  if (argv[0] !== 'demo') return undefined;
  const values: Record<string, unknown> = {};
  const globals: DemoGlobals = {};
  let color = true;
  let verbose = false;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--local') globals.local = true;
    else if (arg === '--no-color') color = false;
    else if (arg === '--verbose') verbose = true;
    else {
      const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
      const name = eq > 0 ? arg.slice(0, eq) : arg;
      const option = DEMO_OPTIONS.find((o) => flagName(o).long === name);
      const global = GLOBAL_VALUES[name];
      if (!option && !global) return undefined;
      if (option && !flagName(option).takesValue) {
        if (eq > 0) return undefined;
        values[option.key] = !name.startsWith('--no-');
        continue;
      }
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      // A missing value, or one that looks like a flag, is the full CLI's to judge.
      if (value === undefined || (eq < 0 && value.startsWith('-'))) return undefined;
      if (global) globals[global] = value;
      else if (option?.port) {
        if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) return undefined;
        values[option.key] = Number(value);
      } else if (option) values[option.key] = value;
    }
  }
  // commander's order: a flag, else its environment variable, else its default (`--no-x` defaults to true).
  for (const o of DEMO_OPTIONS) {
    if (values[o.key] !== undefined) continue;
    if (o.env && o.env in env) values[o.key] = env[o.env];
    else if (o.default !== undefined) values[o.key] = o.default;
    else if (o.flags.startsWith('--no-')) values[o.key] = true;
  }
  return { opts: values as unknown as DemoCliOptions, globals, color, verbose };
}
