// The README shows examples/vitest/tool-server.test.ts verbatim: the example it shows is the one that runs.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

it('the README shows the vitest example exactly as it runs, in under 30 lines', () => {
  const example = readFileSync(new URL('./tool-server.test.ts', import.meta.url), 'utf8');
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  expect(example.trimEnd().split('\n').length).toBeLessThan(30);
});
