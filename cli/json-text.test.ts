import { describe, expect, it } from 'vitest';
import type { CliError } from './errors.js';
import { lineColumn, locateJsonError, parseJsonText } from './json-text.js';

function failure(text: string): CliError {
  try {
    parseJsonText(text, 'body.json');
  } catch (e) {
    return e as CliError;
  }
  throw new Error('parsed');
}

describe('parseJsonText', () => {
  it('parses valid JSON', () => {
    expect(parseJsonText('{"a":[1,true,null,"x"]}', 'f')).toEqual({ a: [1, true, null, 'x'] });
  });

  it('names the file, line and column of the first error, as a usage error', () => {
    const e = failure('{\n  "name": "x",\n  "model": }\n');
    expect(e.exitCode).toBe(2);
    expect(e.message).toBe('Invalid JSON in body.json at line 3, column 12: unexpected "}"');
    expect(failure('{"a": 1,}').message).toContain('line 1, column 9');
    expect(failure('{"a": 1').message).toContain('unexpected end of input');
    expect(failure('{"a": "x\ny"}').message).toContain('line 1, column 9');
    expect(failure("{'a': 1}").message).toContain('property name in double quotes');
    expect(failure('[1, 2] 3').message).toContain('after the end of the value');
    expect(failure('').message).toContain('line 1, column 1');
  });

  it('agrees with JSON.parse on what is valid', () => {
    for (const ok of ['0', '-1.5e+3', '"\\u00e9\\n"', '[]', '{}', ' { "a" : [ { } ] } ']) {
      expect(() => JSON.parse(ok)).not.toThrow();
      expect(locateJsonError(ok).reason).toBe('invalid JSON');
    }
  });

  it('counts lines and columns from 1', () => {
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
