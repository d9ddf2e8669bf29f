import { describe, expect, it, vi } from 'vitest';
import { asksForAudio, audioSocketUrl, isLocalWebCallUrl, localSocketUrl } from './local-protocol.js';
import { FakeEnvironment, fakeWebCallApi, jsonResponse, webCallBody } from './testing.js';
import type { CallStartFailedEvent } from './types.js';
import { WebCall } from './webcall.js';

describe('local web-call URLs', () => {
  it("recognises the emulator's web calls and nothing else", () => {
    expect(isLocalWebCallUrl('http://127.0.0.1:4010/__voice/webcall/call-1')).toBe(true);
    expect(isLocalWebCallUrl('ws://127.0.0.1:4010/__voice/webcall/call-1')).toBe(true);
    expect(isLocalWebCallUrl('https://vapi.daily.co/room-1')).toBe(false);
    expect(isLocalWebCallUrl('https://vapi.daily.co/__voice')).toBe(false);
    expect(isLocalWebCallUrl('not a url')).toBe(false);
    expect(isLocalWebCallUrl(undefined)).toBe(false);
  });

  it('turns the http address into a WebSocket address', () => {
    expect(localSocketUrl('http://127.0.0.1:4010/__voice/webcall/c')).toBe('ws://127.0.0.1:4010/__voice/webcall/c');
    expect(localSocketUrl('https://demo.example/__voice/webcall/c')).toBe('wss://demo.example/__voice/webcall/c');
  });

  it('asks for streamed audio in a query an emulator without it ignores (the path still names the call)', () => {
    const url = audioSocketUrl('http://127.0.0.1:4010/__voice/webcall/c');
    expect(url).toBe('ws://127.0.0.1:4010/__voice/webcall/c?audio=pcm16&v=2');
    expect(new URL(url).pathname).toBe('/__voice/webcall/c');
    expect(asksForAudio(url)).toBe(true);
    expect(asksForAudio(localSocketUrl('http://127.0.0.1:4010/__voice/webcall/c'))).toBe(false);
  });
});

describe('choosing the media layer', () => {
  it('never loads daily-js for an emulator call (the local transport is used instead)', async () => {
    const api = fakeWebCallApi(() => jsonResponse(201, webCallBody({ webCallUrl: 'http://127.0.0.1:1/__voice/webcall/call-1' })));
    const loadDaily = vi.fn(async () => {
      throw new Error('daily-js must not load');
    });
    const call = new WebCall('key', 'http://127.0.0.1:1', undefined, undefined, { fetch: api.fetch, loadDaily, environment: new FakeEnvironment() });
    const failed: CallStartFailedEvent[] = [];
    call.on('call-start-failed', (event) => failed.push(event));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // Node has no Web Audio: the local transport itself fails to build, which proves it was chosen.
    expect(await call.start('assistant-1')).toBeNull();
    expect(loadDaily).not.toHaveBeenCalled();
    expect(failed[0]?.stage).toBe('daily-call-object-creation');
    expect(failed[0]?.error).toMatch(/AudioContext/);
  });

  it('loads daily-js for a Daily room', async () => {
    const api = fakeWebCallApi();
    const loadDaily = vi.fn(async () => {
      throw new Error('no daily here');
    });
    const call = new WebCall('key', 'http://127.0.0.1:1', undefined, undefined, { fetch: api.fetch, loadDaily, environment: new FakeEnvironment() });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await call.start('assistant-1')).toBeNull();
    expect(loadDaily).toHaveBeenCalledTimes(1);
  });
});
