// The fast lane's `voice demo` recogniser against commander's own parse of the demo command: the
// same options for every command line it takes (defaults and environment variables included), and
// everything else left to the full program.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { demoCommand } from '../commands/demo.js';
import { parseDemo } from './lane-args.js';

/** What commander makes of `voice demo <args>` (the program's global options it reads, too). */
function commanderParse(args: string[], env: NodeJS.ProcessEnv): { opts: Record<string, unknown>; globals: Record<string, unknown> } {
  const saved = process.env;
  process.env = env;
  try {
    let seen: { opts: Record<string, unknown>; globals: Record<string, unknown> } | undefined;
    const demo = demoCommand().action((opts: Record<string, unknown>, cmd: Command) => {
      const { apiKey, profile, local } = cmd.optsWithGlobals<Record<string, unknown>>();
      seen = { opts, globals: Object.fromEntries(Object.entries({ apiKey, profile, local }).filter(([, v]) => v !== undefined)) };
    });
    const program = new Command('voice').exitOverride().option('--api-key <key>').option('--profile <name>').option('--local').option('--no-color').option('--verbose').addCommand(demo);
    program.parse(['demo', ...args], { from: 'user' });
    if (!seen) throw new Error('the demo action did not run');
    return seen;
  } finally {
    process.env = saved;
  }
}

const taken: string[][] = [
  [],
  ['--slug', 'acme'],
  ['--slug=acme', '--port=0', '--host', '0.0.0.0'],
  ['--port', '8080', '--open', '--strict', '--no-captions'],
  ['--visitors', 'prospects.json', '--local', '--api-key', 'sk-1', '--profile', 'work'],
  ['--api-url', 'http://127.0.0.1:4010', '--public-key', 'pk', '--assistant-id', 'a1', '--phone-number-id', 'p1'],
  ['--supabase-url', 'https://x.supabase.co', '--supabase-anon-key', 'anon', '--webhook-url', 'https://hook', '--sentry-dsn', 'https://k@s/1'],
  ['--slug', 'a', '--slug', 'b', '--no-color', '--verbose'],
];

describe("the fast lane's voice demo", () => {
  it('parses what commander parses, with defaults and environment variables', () => {
    const envs: NodeJS.ProcessEnv[] = [{}, { VOICE_PUBLIC_KEY: 'pk-env', VOICE_ASSISTANT_ID: 'a-env', VOICE_SUPABASE_URL: '', VOICE_SENTRY_DSN: 'dsn-env', VOICE_API_URL: 'http://ignored' }];
    for (const env of envs) {
      for (const args of taken) {
        const call = parseDemo(['demo', ...args], env);
        expect(call, args.join(' ')).toBeDefined();
        const expected = commanderParse(args, env);
        expect(call?.opts, args.join(' ')).toEqual(expected.opts);
        expect(call?.globals, args.join(' ')).toEqual(expected.globals);
      }
    }
    expect(parseDemo(['demo', '--no-color', '--verbose'], {})).toMatchObject({ color: false, verbose: true });
    expect(parseDemo(['demo'], {})).toMatchObject({ color: true, verbose: false });
  });

  it('leaves help, subcommands, unknown or short flags, missing and bad values to the full program', () => {
    const left = [
      ['assistant', 'list'],
      ['--local', 'demo'],
      ['demo', '--help'],
      ['demo', '-h'],
      ['demo', 'build'],
      ['demo', 'extra'],
      ['demo', '--bogus'],
      ['demo', '--slug'],
      ['demo', '--slug', '--open'],
      ['demo', '--port', 'abc'],
      ['demo', '--port', '70000'],
      ['demo', '--port', '-1'],
      ['demo', '--open=yes'],
      ['demo', '--json'],
      ['demo', '-y'],
      ['demo', '--'],
      ['demo', '--version'],
    ];
    for (const argv of left) expect(parseDemo(argv, {}), argv.join(' ')).toBeUndefined();
  });
});
