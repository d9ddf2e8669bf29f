// The bundled CLI reads the derived schema files as bytes (core/schemas/data.ts): the build puts
// copies where the built reader looks for them, identical to the sources.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../test/build.js';
import { SCHEMA_FILES } from './build-schema-files.js';

const CLI = join(ROOT, 'dist', 'cli');

beforeAll(() => ensureBuilt());

describe('schema files of the built CLI', () => {
  it('are copies of the derived files (rebuild with npm run build when this fails)', () => {
    for (const name of SCHEMA_FILES) expect(readFileSync(join(CLI, 'schemas', name)).equals(readFileSync(join(ROOT, 'core', 'schemas', name))), name).toBe(true);
  });

  it('are where the bundled reader looks for them', () => {
    const built = [join(CLI, 'main.js'), ...readdirSync(join(CLI, 'chunks')).map((f) => join(CLI, 'chunks', f))].filter((f) => f.endsWith('.js'));
    const readers = built.filter((f) => readFileSync(f, 'utf8').includes('"../schemas/","./schemas/"]'));
    expect(readers.length).toBe(1);
    const url = pathToFileURL(readers[0] as string);
    for (const name of SCHEMA_FILES)
      expect(
        ['../schemas/', './schemas/'].some((place) => existsSync(new URL(`${place}${name}`, url))),
        name,
      ).toBe(true);
  });
});
