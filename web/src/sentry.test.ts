// The page's Sentry wiring: a failed browser call start reaches Sentry once, through the web-call
// client's reportError hook, with no token, key, name or data in what is sent.
import * as Sentry from '@sentry/react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { harness } from '#core/webcall/testing';
import { initSentry, reportFatal } from './sentry.js';

const sent: string[] = [];
const stubTransport = () => ({
  send: async (envelope: unknown) => {
    sent.push(JSON.stringify(envelope));
    return { statusCode: 200 };
  },
  flush: async () => true,
});

afterAll(() => Sentry.close());

describe('Sentry reporting of web-call errors', () => {
  it('sends one report for a failed start, with name, data and token fields filtered', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    initSentry('https://public123@o1.ingest.example/1', stubTransport);
    const failure = { errorMsg: 'join refused', meetingToken: 'tok-SECRET-1', name: 'Ada Lovelace', data: { phone: '+14155550100' }, details: { callToken: 'tok-SECRET-2' } };
    const h = harness({ script: { join: () => Promise.reject(failure) }, options: { reportError: reportFatal } });
    // The page logs the failure too: the console breadcrumb must not carry the object.
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    h.call.on('error', (e) => console.error('Browser call failed:', e));
    expect(await h.call.start('assistant-1')).toBeNull();
    log.mockRestore();
    await Sentry.flush(2000);

    const events = sent.filter((envelope) => envelope.includes('"type":"event"'));
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event).toContain('join refused');
    expect(event).toContain('start-method-error');
    for (const secret of ['tok-SECRET-1', 'tok-SECRET-2', 'Ada Lovelace', '+14155550100', 'public-key']) expect(event).not.toContain(secret);
    expect(event).not.toMatch(/"[a-zA-Z]*token"/i);
  });
});
