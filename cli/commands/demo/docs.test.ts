// docs/demo.md's commands are `voice demo` command lines the CLI accepts as written (every flag
// known, every value in place), and the screenshots it shows are in docs/.
import { existsSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { wordsOf } from '../../../docs/words.js';
import { demoCommand } from './index.js';
import { buildProgram } from '../../program.js';
import type { DemoCliOptions } from './options.js';

const docs = new URL('../../../docs/', import.meta.url);
const guide = readFileSync(new URL('demo.md', docs), 'utf8');

/** What the program makes of `voice <args>`, its demo command's action replaced by a spy; throws on any parse error. */
async function parse(args: string[], env: Record<string, string>): Promise<DemoCliOptions> {
  const saved = process.env;
  process.env = { ...env };
  try {
    let seen: DemoCliOptions | undefined;
    const demo = { name: 'demo', description: 'demo', load: async () => demoCommand().action((opts: DemoCliOptions) => void (seen = opts)) };
    await (await buildProgram(args, [demo])).parseAsync(args, { from: 'user' });
    if (!seen) throw new Error(`\`voice ${args.join(' ')}\` ran no demo`);
    return seen;
  } finally {
    process.env = saved;
  }
}

/** A command line's words (as the guides' harness reads them), leading VAR=value assignments apart. */
function words(line: string): { env: Record<string, string>; argv: string[] } {
  const all = wordsOf(line);
  const env: Record<string, string> = {};
  while (all[0] && /^[A-Z_]+=/.test(all[0])) {
    const [name, ...rest] = (all.shift() as string).split('=');
    env[name as string] = rest.join('=');
  }
  return { env, argv: all };
}

it("docs/demo.md's commands parse as voice demo command lines", async () => {
  // Shell comments dropped; only the `voice demo` lines (the guide's other commands run in docs/docs.test.ts).
  const blocks = [...guide.matchAll(/```sh[^\n]*\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] ?? '').trim().split('\n'))
    .map((line) => line.replace(/\s+#.*$/, ''))
    .filter((line) => /^(?:[A-Z_]+=\S+\s+)*voice demo(?:\s|$)/.test(line));
  expect(blocks.length).toBeGreaterThanOrEqual(3);
  for (const line of blocks) {
    const { env, argv } = words(line);
    expect(argv[0], line).toBe('voice');
    const parsed = await parse(argv.slice(1), env);
    if (argv.includes('--seller-name')) expect(parsed.sellerName).toBe('Northwind Voice');
    if (env.VOICE_SELLER_NAME) expect(env.VOICE_SELLER_NAME).toBe('Northwind Voice');
  }
});

it('docs/demo.md shows screenshots that exist', () => {
  const images = [...guide.matchAll(/\]\(([^)]+\.png)\)/g)].map((m) => m[1] as string);
  expect(images).toHaveLength(8);
  for (const image of images) expect(existsSync(new URL(image, docs)), image).toBe(true);
});
