// Multipart uploads from every kind of source, parsed back on the server side.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient as createBrowserClient } from './index.js';
import { guessContentType } from './multipart.js';
import { TRANSPORTS, clientOn, formOf, startServer } from './node-testing.js';
import type { TestServer } from './node-testing.js';

let server: TestServer;
const dir = mkdtempSync(join(tmpdir(), 'voice-upload-'));
const pdf = join(dir, 'price list.pdf');
writeFileSync(pdf, '%PDF-1.4 fake');

beforeAll(async () => {
  server = await startServer(() => ({ body: { id: 'f1', status: 'done' } }));
});
afterAll(() => server.close());

async function lastFile(field = 'file'): Promise<{ form: FormData; file: File }> {
  const form = await formOf(server.requests.at(-1)!);
  return { form, file: form.get(field) as File };
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe.each(TRANSPORTS)('uploads over %s', (kind) => {
  const client = (): ReturnType<typeof clientOn> => clientOn(kind, { apiKey: 'k', baseUrl: server.url });

  it('sends bytes with the given name, a guessed type and the other fields', async () => {
    await expect(client().file.create({ file: bytes('a,b\n1,2\n'), filename: 'rows.csv', purpose: 'knowledge-base-v2' })).resolves.toEqual({ id: 'f1', status: 'done' });
    const { form, file } = await lastFile();
    expect(file.name).toBe('rows.csv');
    expect(file.type).toBe('text/csv');
    expect(await file.text()).toBe('a,b\n1,2\n');
    expect(form.get('purpose')).toBe('knowledge-base-v2');
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer k');
  });

  it('keeps a Blob name and an explicit content type', async () => {
    const blob = new File(['{"a":1}'], 'data.bin');
    await client().file.create({ file: blob, contentType: 'application/json' });
    const { file } = await lastFile();
    expect(file.name).toBe('data.bin');
    expect(file.type).toBe('application/json');
    expect(await file.text()).toBe('{"a":1}');
  });

  it('reads a web ReadableStream and a Node stream (async iterable)', async () => {
    const web = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes('hello '));
        c.enqueue(bytes('stream'));
        c.close();
      },
    });
    await client().file.upload({ file: web, filename: 'a.txt' });
    expect(await (await lastFile()).file.text()).toBe('hello stream');
    await client().file.create({ file: Readable.from([Buffer.from('node '), Buffer.from('stream')]), filename: 'voice.mp3' });
    const { file } = await lastFile();
    expect(await file.text()).toBe('node stream');
    expect(file.type).toBe('audio/mpeg');
  });

  it('falls back to application/octet-stream and the name "file"', async () => {
    await client().file.create({ file: bytes('x') });
    const { file } = await lastFile();
    expect(file.name).toBe('file');
    expect(file.type).toBe('application/octet-stream');
  });

  it('sends several samples for a voice clone', async () => {
    await client().elevenLabs.clone({ file: [bytes('one'), bytes('two')] as never, name: 'My voice', labels: { accent: 'irish' } });
    const form = await formOf(server.requests.at(-1)!);
    const field = form.has('files') ? 'files' : 'file';
    const files = form.getAll(field) as File[];
    expect(await Promise.all(files.map((f) => f.text()))).toEqual(['one', 'two']);
    expect(form.get('name')).toBe('My voice');
    expect(form.get('labels')).toBe('{"accent":"irish"}');
  });
});

describe('uploads from a path (Node entry)', () => {
  it.each(['http', 'undici'] as const)('streams the file with its base name and guessed type over %s', async (kind) => {
    await clientOn(kind, { apiKey: 'k', baseUrl: server.url }).file.create({ file: pdf, purpose: 'assistant' });
    const { form, file } = await lastFile();
    expect(file.name).toBe('price list.pdf');
    expect(file.type).toBe('application/pdf');
    expect(await file.text()).toBe('%PDF-1.4 fake');
    expect(form.get('purpose')).toBe('assistant');
  });

  it('says which file is missing, without sending', async () => {
    const before = server.requests.length;
    const missing = join(dir, 'nope.pdf');
    await expect(clientOn('http', { baseUrl: server.url }).file.create({ file: missing })).rejects.toThrow(`Cannot read upload file ${missing}: no such file`);
    expect(server.requests.length).toBe(before);
  });

  it('says a folder is not a file, without sending', async () => {
    const before = server.requests.length;
    await expect(clientOn('http', { baseUrl: server.url }).file.create({ file: dir })).rejects.toThrow(`Cannot read upload file ${dir}: it is a directory`);
    expect(server.requests.length).toBe(before);
  });

  it('the browser entry refuses paths with a clear message', async () => {
    const browser = createBrowserClient({ baseUrl: server.url });
    await expect(browser.file.create({ file: pdf })).rejects.toThrow(/file path needs the Node entry/);
  });
});

it('guesses common content types from the extension', () => {
  expect(guessContentType('a.PDF')).toBe('application/pdf');
  expect(guessContentType('x.docx')).toMatch(/wordprocessingml/);
  expect(guessContentType('call.wav')).toBe('audio/wav');
  expect(guessContentType('notes')).toBeUndefined();
});
