import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileVisitorStore } from './file-store.js';

const acme = { slug: 'acme', name: 'Acme', system: 'Sell to Acme.', first_message: 'Hi Acme!' };
const globex = { slug: 'globex', name: 'Globex', system: 'Sell to Globex.', first_message: 'Hi Globex!' };

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voice-visitors-'));
  file = join(dir, 'visitors.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const onDisk = () => JSON.parse(readFileSync(file, 'utf8')) as unknown;

describe('the local visitors file', () => {
  it('starts empty when missing and round-trips create, update, delete', async () => {
    const store = new FileVisitorStore(file);
    expect(await store.list()).toEqual([]);
    expect(await store.create([acme, globex])).toEqual([acme, globex]);
    expect(onDisk()).toEqual([acme, globex]);
    expect(await store.update([{ slug: 'acme', name: 'Acme Corp' }])).toEqual([{ ...acme, name: 'Acme Corp' }]);
    expect(await store.get('acme')).toEqual({ ...acme, name: 'Acme Corp' });
    await store.delete(['globex']);
    expect(onDisk()).toEqual([{ ...acme, name: 'Acme Corp' }]);
    expect(await store.get('globex')).toBeUndefined();
  });

  it('refuses duplicates and missing slugs without writing anything', async () => {
    const store = new FileVisitorStore(file);
    await store.create([acme]);
    const before = readFileSync(file, 'utf8');
    await expect(store.create([globex, acme])).rejects.toMatchObject({ kind: 'exists', message: expect.stringContaining('acme already exists') });
    await expect(
      store.update([
        { slug: 'acme', name: 'X' },
        { slug: 'nope', name: 'Y' },
      ]),
    ).rejects.toMatchObject({ kind: 'not-found' });
    await expect(store.delete(['acme', 'nope'])).rejects.toMatchObject({ kind: 'not-found', message: expect.stringContaining('nope') });
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('reports a corrupt file clearly and never overwrites it', async () => {
    const store = new FileVisitorStore(file);
    for (const corrupt of ['[{"slug": "acme",', '{"slug": "acme"}', '[{"slug": "Not Valid", "name": "x", "system": "", "first_message": ""}]']) {
      writeFileSync(file, corrupt);
      await expect(store.list()).rejects.toMatchObject({ kind: 'corrupt', hint: expect.stringMatching(/left unchanged/) });
      await expect(store.create([globex])).rejects.toMatchObject({ kind: 'corrupt' });
      expect(readFileSync(file, 'utf8')).toBe(corrupt);
    }
  });

  it('writes through a temp file and rename, keeping the mode and leaving no temp behind', async () => {
    writeFileSync(file, '[]\n');
    chmodSync(file, 0o600);
    const inode = statSync(file).ino;
    await new FileVisitorStore(file).create([acme]);
    expect(statSync(file).ino).not.toBe(inode);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['visitors.json']);
  });

  it('reads the fixtures format that voice demo serves', async () => {
    writeFileSync(file, JSON.stringify([acme]));
    expect(await new FileVisitorStore(file).list()).toEqual([acme]);
  });
});
