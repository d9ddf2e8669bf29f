// Which command lines the fast lane takes (parseRead) and which reads it knows (readOperations).
import { describe, expect, it } from 'vitest';
import { catalogue, flatten } from '#core/catalogue/index';
import { parseRead } from './lane-args.js';
import { readOperations } from './read-ops.js';

const ops = readOperations(flatten(catalogue));

describe('readOperations', () => {
  it('keeps the catalogue reads that answer JSON, and nothing else', () => {
    expect(ops['assistant list']).toMatchObject({ resource: ['assistant'], params: 0, op: { method: 'GET', path: '/assistant', list: 'plain' } });
    expect(ops['assistant get']).toMatchObject({ params: 1, op: { path: '/assistant/{id}' } });
    expect(ops['eval simulation suite list']?.resource).toEqual(['eval', 'simulation', 'suite']);
    expect(ops['assistant create']).toBeUndefined();
    expect(ops['assistant delete']).toBeUndefined();
    expect(ops['call recording get']).toBeUndefined();
    for (const read of Object.values(ops)) expect(read.op).not.toHaveProperty('summary');
    const reads = flatten(catalogue).filter((e) => e.op.method === 'GET' && e.op.response !== 'binary');
    expect(Object.keys(ops)).toHaveLength(reads.length);
  });
});

describe('parseRead', () => {
  const read = (...argv: string[]): ReturnType<typeof parseRead> => parseRead(argv, ops);

  it('takes a read with the global options commander would take, anywhere on the line', () => {
    expect(read('assistant', 'list', '--json')).toEqual({ read: ops['assistant list'], pathValues: [], opts: { color: true, json: true } });
    expect(read('--profile', 'ci', 'assistant', 'get', 'a1', '--no-color', '--api-url=http://x', '--api-key', 'k', '--local')).toEqual({
      read: ops['assistant get'],
      pathValues: ['a1'],
      opts: { color: false, profile: 'ci', apiUrl: 'http://x', apiKey: 'k', local: true },
    });
    expect(read('eval', 'simulation', 'suite', 'get', 's1')?.pathValues).toEqual(['s1']);
    expect(read('assistant', 'get', 'list')?.pathValues).toEqual(['list']);
  });

  it('leaves everything else to the full CLI', () => {
    for (const argv of [
      [],
      ['assistant'],
      ['assistant', 'list', 'x'],
      ['assistant', 'get'],
      ['assistant', 'list', '--limit', '2'],
      ['assistant', 'list', '-y'],
      ['assistant', 'list', '--profile'],
      ['assistant', 'list', '--profile', '--json'],
      ['assistant', 'list', '--'],
      ['assistant', 'get', '-'],
      ['assistant', 'update', 'x'],
      ['help', 'assistant', 'list'],
      ['assistant', 'list', '--help'],
    ])
      expect(read(...argv), argv.join(' ')).toBeUndefined();
  });
});
