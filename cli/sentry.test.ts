import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { addSecret, redact } from './redact.js';
import { reportCrash, scrubEvent } from './sentry.js';

const KEY = 'sk-sentry-test-key-1234567890';

describe('crash reports', () => {
  it('strip keys, tokens and request bodies from events', () => {
    addSecret(KEY);
    const event = scrubEvent(
      {
        message: `failed with ${KEY}`,
        request: { url: 'https://api.vapi.ai/assistant', data: '{"name":"secret body"}', headers: { authorization: `Bearer ${KEY}` }, cookies: { a: 'b' } },
        extra: { apiKey: KEY, token: 'tok', nested: { note: `Authorization: Bearer abc.def` } },
        breadcrumbs: [{ message: 'body' }],
      },
      redact,
    );
    const text = JSON.stringify(event);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('secret body');
    expect(text).not.toContain('tok"');
    expect(text).not.toContain('abc.def');
    expect(event.request).toEqual({ url: 'https://api.vapi.ai/assistant' });
  });

  it('send nothing without VOICE_SENTRY_DSN, and a scrubbed event with it', async () => {
    const bodies: Buffer[] = [];
    const srv = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        bodies.push(req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw);
        res.end('{}');
      });
    }).listen(0, '127.0.0.1');
    await new Promise((r) => srv.once('listening', r));
    const port = (srv.address() as AddressInfo).port;
    addSecret(KEY);
    await reportCrash(new Error(`boom ${KEY}`), { env: {}, redact, version: 'test' });
    expect(bodies).toHaveLength(0);
    await reportCrash(new Error(`boom ${KEY}`), { env: { VOICE_SENTRY_DSN: `http://publickey@127.0.0.1:${port}/1` }, redact, version: 'test' });
    srv.close();
    expect(bodies.length).toBeGreaterThan(0);
    const sent = bodies.map((b) => b.toString('utf8')).join('\n');
    expect(sent).toContain('boom');
    expect(sent).not.toContain(KEY);
  });
});
