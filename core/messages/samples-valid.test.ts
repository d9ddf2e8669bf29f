// Every sample message fits its published schema (core/schemas, derived from the platform's API).
import { expect, it } from 'vitest';
import { messageProblems } from './testing.js';
import { sampleServerMessage, serverMessageTypes } from './index.js';

it('every type built from the sample context fits its published schema', async () => {
  expect(await messageProblems(serverMessageTypes.map((t) => sampleServerMessage(t)))).toEqual([]);
}, 30_000);
