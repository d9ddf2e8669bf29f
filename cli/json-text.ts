// JSON parsing with errors people can act on: the file, the line and the column.
import { usageError } from './errors.js';

/** Parses JSON text; on failure throws a usage error naming the source, line and column. */
export function parseJsonText(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const { offset, reason } = locateJsonError(text);
    const { line, column } = lineColumn(text, offset);
    throw usageError(`Invalid JSON in ${label} at line ${line}, column ${column}: ${reason}`);
  }
}

/** Line and column (both from 1) of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** Finds the first syntax error of a JSON text (V8's messages do not always say where). */
export function locateJsonError(text: string): { offset: number; reason: string } {
  let i = 0;
  const fail = (reason: string): never => {
    throw { offset: i, reason };
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const what = (): string => (i >= text.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(text[i])}`);
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(what());
  };
  const string = (): void => {
    i++;
    while (i < text.length) {
      const c = text[i] as string;
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const n = text[i + 1];
        if (n === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape');
          i += 6;
        } else if (n !== undefined && '"\\/bfnrt'.includes(n)) i += 2;
        else fail('bad escape in string');
      } else if (c.charCodeAt(0) < 0x20) fail('control character in string (unescaped newline?)');
      else i++;
    }
    fail('unterminated string');
  };
  const number = (): void => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m || m[0] === '-' || m[0] === '') fail(what());
    i += (m as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`${what()}, expected a property name in double quotes`);
        string();
        ws();
        if (text[i] !== ':') fail(`${what()}, expected ':'`);
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`${what()}, expected ',' or '}'`);
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`${what()}, expected ',' or ']'`);
      }
    } else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else fail(what());
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`${what()} after the end of the value`);
    return { offset: 0, reason: 'invalid JSON' };
  } catch (e) {
    return e as { offset: number; reason: string };
  }
}
