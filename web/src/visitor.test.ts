// The visitor slug is the first segment of the address path (spec 2); an empty path uses 'default'.
import { describe, expect, it } from 'vitest';
import { slugFromPath } from './visitor.js';

describe('slugFromPath', () => {
  it('uses the first segment of a multi-segment path', () => {
    expect(slugFromPath('/acme/extra')).toBe('acme');
    expect(slugFromPath('/acme/extra/more/')).toBe('acme');
    expect(slugFromPath('//acme/extra')).toBe('acme');
  });

  it('uses default for an empty path', () => {
    expect(slugFromPath('/')).toBe('default');
    expect(slugFromPath('')).toBe('default');
  });

  it('decodes the segment, and keeps it as it is when it cannot be decoded', () => {
    expect(slugFromPath('/caf%C3%A9/x')).toBe('café');
    expect(slugFromPath('/bad%E0%A4%A/x')).toBe('bad%E0%A4%A');
  });
});
