// Calls with sound for tests: an emulator with `audio: true` running on its simulated clock at a
// high speed (nothing waits on the wall clock: the timeline is the same at any speed), a loopback
// server receiving the assistant's messages, and the ended call with its timeline.
import { afterEach } from 'vitest';
import type { Json } from '../../../messages/index.js';
import type { FakeModel } from '../../../model/testing.js';
import { startEmulator } from '../../index.js';
import type { Emulator } from '../../index.js';
import type { Scenario } from '../scenario.js';
import { startHook } from '../testing.js';
import type { Hook } from '../testing.js';
import type { TimelineData, TimelineEvent } from './timeline.js';

/** The message types a test's server subscribes to. */
export const HEARD_TYPES = ['status-update', 'transcript', 'conversation-update', 'speech-update', 'user-interrupted', 'tool-calls', 'end-of-call-report'];

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

/** An ended call with sound and what surrounds it. */
export interface AudioCall {
  emu: Emulator;
  hook: Hook;
  call: Json;
  timeline: TimelineData;
  /** The timeline's events of one type. */
  events<T extends TimelineEvent['type']>(type: T): Extract<TimelineEvent, { type: T }>[];
  /** The message types the server received, in order. */
  types(): string[];
  /** The conversation's spoken lines as `AI: ...` / `User: ...`. */
  transcript(): string[];
}

/** Runs one outbound call with sound to its end: `assistant` fields (a server to `hook` added), the customer's `scenario`, an optional model. */
export async function audioCall(assistant: Json, scenario: Scenario, options: { model?: FakeModel; speed?: number } = {}): Promise<AudioCall> {
  const hook = await startHook();
  const emu = await startEmulator({ speed: options.speed ?? 1000, audio: true, scenario, ...(options.model ? { model: { url: options.model.url, model: 'fake-llm' } } : {}) });
  open.push(emu, hook);
  const body = { name: 'Front desk', server: { url: hook.url }, serverMessages: HEARD_TYPES, ...(options.model ? { model: { provider: 'openai', model: 'gpt-4o-mini' } } : {}), ...assistant };
  const created = (await emu.client.assistant.create(body as never)) as { id: string };
  const placed = (await emu.client.call.create({ assistantId: created.id, customer: { number: '+14155550100' } } as never)) as { id: string };
  await emu.calls.idle();
  const call = (await emu.client.call.get(placed.id)) as Json;
  const timeline = emu.calls.timeline(placed.id);
  if (!timeline) throw new Error(`call ${placed.id} has no timeline: ${JSON.stringify(call.endedReason)}`);
  return {
    emu,
    hook,
    call,
    timeline,
    events: (type) => timeline.events.filter((e) => e.type === type) as never,
    types: () => hook.types(placed.id),
    transcript: () => String((call.artifact as Json).transcript).split('\n'),
  };
}
