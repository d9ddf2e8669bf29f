// The derived data read entry by entry holds exactly what the JSON files hold, and bytes laid out
// any other way are left to the JSON modules.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { lazyTable, loadSchemaData } from './data.js';

const bytesOf = (name: string): Buffer => readFileSync(new URL(`./${name}`, import.meta.url));

describe('lazyTable', () => {
  it('reads every entry of the derived files as JSON.parse does', () => {
    for (const name of ['components.json', 'operations.json']) {
      const bytes = bytesOf(name);
      const table = lazyTable(bytes);
      expect(table, name).toBeDefined();
      const whole = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
      expect(Object.keys(table ?? {})).toEqual(Object.keys(whole));
      expect(isDeepStrictEqual({ ...table }, whole), name).toBe(true);
    }
  });

  it('answers unknown names with undefined and refuses changes', () => {
    const table = lazyTable(Buffer.from('{\n"A":{"type":"string"},\n"B":[1,"é"]\n}\n')) as Record<string, unknown>;
    expect(table.A).toEqual({ type: 'string' });
    expect(table.B).toEqual([1, 'é']);
    expect(table.C).toBeUndefined();
    expect('A' in table && !('C' in table)).toBe(true);
    expect(() => Object.assign(table, { C: 1 })).toThrow(TypeError);
  });

  it('leaves other layouts to the JSON modules', () => {
    for (const text of ['{"A":1}', JSON.stringify({ A: { b: 1 } }, null, 2), '{\n"A":1,\n"B":2\n', '{\n"A\\"x":1\n}\n', '[\n"A":1\n]\n', '{\n"A"1\n}\n'])
      expect(lazyTable(Buffer.from(text)), text).toBeUndefined();
  });
});

describe('loadSchemaData', () => {
  it('serves the components and operations by name', async () => {
    const { components, operations } = await loadSchemaData();
    expect(operations['POST /assistant']?.request).toEqual({ $ref: 'CreateAssistantDTO' });
    expect((components.CreateAssistantDTO as { properties?: object }).properties).toHaveProperty('model');
  });
});
