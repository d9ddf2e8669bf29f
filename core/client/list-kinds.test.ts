// The client's type-level rule for list operations (see IsList in types.ts) must agree with the
// catalogue's run-time `list` flags: plain lists are exactly the `list` keys with array results.
import { expect, it } from 'vitest';
import { catalogue, flatten } from '../catalogue/index.js';

it('every plain list is keyed `list`, and every `list` key is a list', () => {
  for (const { keys, op } of flatten(catalogue)) {
    const key = keys[keys.length - 1];
    if (op.list === 'plain') expect(key, keys.join('.')).toBe('list');
    if (key === 'list') expect(op.list, keys.join('.')).toBeDefined();
  }
});
