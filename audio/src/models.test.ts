// The model file the package ships is the one its notices name (LICENSES.md), unmodified.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { modelPath } from './silero.js';

it('ships silero VAD 6.2.1 as released (the sha256 LICENSES.md names)', () => {
  const sha = createHash('sha256').update(readFileSync(modelPath())).digest('hex');
  expect(sha).toBe('1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3');
  expect(readFileSync(new URL('../LICENSES.md', import.meta.url), 'utf8')).toContain(sha);
});
