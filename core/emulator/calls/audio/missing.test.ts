// Without voice-agent-audio installed, `voice dev` still runs calls: on the text timeline, each one
// saying in its log and its summary that audio is off and how to turn it on.
import { describe, expect, it, vi } from 'vitest';
import type { Json } from '../../../messages/index.js';
import { startEmulator } from '../../index.js';
import { AUDIO_OFF } from './port.js';

vi.mock('voice-agent-audio', () => {
  throw new Error("Cannot find package 'voice-agent-audio'");
});

describe('the audio package not installed', () => {
  it('calls run on the text timeline, and their log and summary say how to get sound', async () => {
    const emu = await startEmulator({ speed: 1000, audio: true, scenario: { turns: [{ say: 'Bye.' }] } });
    try {
      const created = (await emu.client.assistant.create({ name: 'Desk', firstMessage: 'Hello.' } as never)) as { id: string };
      const placed = (await emu.client.call.create({ assistantId: created.id, customer: { number: '+14155550100' } } as never)) as { id: string };
      await emu.calls.idle();
      const call = (await emu.client.call.get(placed.id)) as Json;
      expect(emu.calls.timeline(placed.id)).toBeUndefined();
      expect(String((call.artifact as Json).transcript)).toContain('User: Bye.');
      expect(String((call.analysis as Json).summary)).toContain(`Audio: ${AUDIO_OFF.missing}.`);
      expect(AUDIO_OFF.missing).toContain('npm install voice-agent-audio');
      const logs = await (await fetch(`${emu.url}/call/${placed.id}/call-logs`, { headers: { authorization: 'Bearer k' } })).text();
      expect(logs).toContain('"level":"WARN"');
      expect(logs).toContain('voice-agent-audio is not installed');
    } finally {
      await emu.close();
    }
  });
});
