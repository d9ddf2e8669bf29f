// The link check the guides' test runs (docs.test.ts), on small files of its own.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anchorOf, anchorsOf, brokenLinks, linksOf } from './links.js';

const root = mkdtempSync(join(tmpdir(), 'voice-links-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('guide links', () => {
  it('makes anchors as GitHub does, numbering repeated headings', () => {
    expect(anchorOf('The webhook loop: `listen`, `trigger`, `call watch`')).toBe('the-webhook-loop-listen-trigger-call-watch');
    expect([...anchorsOf('# A\n## Set up\n```sh\n# not a heading\n```\n## Set up\n')]).toEqual(['a', 'set-up', 'set-up-1']);
  });

  it('finds links outside code only', () => {
    expect(linksOf('See [a](a.md#x) and `[b](b.md)`.\n```md\n[c](c.md)\n```\n![img](i.png "title")\n').map((l) => l.target)).toEqual(['a.md#x', 'i.png']);
  });

  it('reports a missing file, a missing heading and a link from a subfolder gone wrong; passes the rest', () => {
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'README.md'), '# Top\n## Install\n');
    writeFileSync(
      join(root, 'docs', 'guide.md'),
      '# Guide\n## Here\n[ok](../README.md#install) [self](#here) [web](https://example.com/x#y)\n[gone](guide2.md) [no heading](../README.md#setup) [wrong folder](docs/guide.md)\n',
    );
    expect(brokenLinks(root, 'docs/guide.md')).toEqual([
      'docs/guide.md:4: guide2.md: no such file (docs/guide2.md)',
      'docs/guide.md:4: ../README.md#setup: no heading "#setup" in README.md',
      'docs/guide.md:4: docs/guide.md: no such file (docs/docs/guide.md)',
    ]);
  });
});
