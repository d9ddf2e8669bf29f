// Every guide under docs/ (and the README) runs: its code blocks, in order, against an emulator
// started for that guide (docs/harness.ts says how each kind of block runs). A guide added later
// is picked up by its file name alone.
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from 'voice-agent-core/emulator';
import { startFakeModel, type FakeModel } from '#core/model/testing';
import { ensureBuilt } from '../cli/test/build.js';
import { kindOf, mirrored, notRunBecause, parseBlocks, runModule, testedIn, writeBlock, type GuideContext } from './harness.js';
import { brokenLinks } from './links.js';
import { missingOutput, runShell } from './shell.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GUIDES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
/** Blocks shown but not run (each saying why): at most one per guide. */
const MAX_SHOWN = 1;

beforeAll(() => ensureBuilt());

/** A port nothing listens on now, for the guide's own server (its blocks say port 3000). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

describe.each(GUIDES)('%s', (guide) => {
  const text = readFileSync(join(ROOT, guide), 'utf8');
  const blocks = parseBlocks(text);
  const name = guide.replace(/\W+/g, '-');
  let emulator: Emulator;
  let model: FakeModel;
  const ctx = {} as GuideContext;

  beforeAll(async () => {
    // Fast enough that a call the guide places ends within its block (`voice call watch` waits for the end).
    emulator = await startEmulator({ port: 0, speed: 20 });
    const dir = mkdtempSync(join(tmpdir(), `voice-docs-${name}-`));
    // The repository's samples (scenarios, visitors, bodies) at the paths the guides name.
    symlinkSync(join(ROOT, 'fixtures'), join(dir, 'fixtures'));
    Object.assign(ctx, {
      root: ROOT,
      dir,
      url: emulator.url,
      appPort: await freePort(),
      listenPort: await freePort(),
      mcpPort: await freePort(),
      modelUrl: (model = await startFakeModel(() => ({ text: 'Happy to help with that.' }))).url,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), NO_COLOR: '1', CI: '1', VOICE_API_URL: emulator.url, VOICE_API_KEY: 'docs-key' },
    });
  });
  afterAll(async () => {
    await emulator?.close();
    await model?.close();
    if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
  });

  it('is written for users, and shows few blocks it does not run', () => {
    expect(text).not.toMatch(/design\.md|spec(ification)? (section )?\d|§\s*\d/i);
    const shown = blocks.filter((b) => kindOf(b) === 'shown');
    expect(shown.length).toBeLessThanOrEqual(MAX_SHOWN);
    for (const b of shown) expect(notRunBecause(b), `line ${b.line}: norun="why it cannot run in a test"`).toMatch(/\w{3,}/);
  });

  it('links only to files and headings that exist', () => {
    expect(brokenLinks(ROOT, guide)).toEqual([]);
  });

  /** What the last shell block printed (undefined while it runs, so a failed one leaves nothing to compare). */
  let printed: string | undefined;
  for (const [i, block] of blocks.entries()) {
    const kind = kindOf(block);
    if (block.lang === 'output')
      it(`line ${block.line}: output of the block before`, () => {
        const before = blocks
          .slice(0, i)
          .reverse()
          .find((b) => kindOf(b) !== 'data');
        expect(before && kindOf(before), 'an output block follows a shell block').toBe('shell');
        expect(printed, 'the shell block before it ran').toBeDefined();
        expect(missingOutput(block.code, printed as string)).toEqual([]);
      });
    if (kind === 'shown' || kind === 'data') continue;
    it(`line ${block.line}: ${kind} ${block.lang}`, async () => {
      if (kind === 'elsewhere') expect(readFileSync(join(ROOT, testedIn(block) as string), 'utf8')).toContain(guide.replace(/^docs\//, ''));
      else if (kind === 'mirror') expect(block.code).toBe(mirrored(block, ROOT));
      else if (kind === 'write') writeBlock(block, ctx);
      else if (kind === 'module') await runModule(block, ctx, name);
      else {
        printed = undefined;
        printed = await runShell(block, ctx);
      }
    }, 90_000);
  }
});
