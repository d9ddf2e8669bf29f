// Scripts the fake model by who is asking: the tester (a simulated caller), the target assistant,
// the structured-output extractor or the AI judge, told apart by the system prompts the runs send.
import type { FakeReply, FakeRequest, FakeScript } from '../model/testing.js';

/** Who sent a model request. */
export type Role = 'tester' | 'target' | 'extractor' | 'judge';

/** The system prompts of a request, joined. */
export function systemOf(req: FakeRequest): string {
  const messages = (req.body.messages as { role: string; content: unknown }[] | undefined) ?? [];
  return messages
    .filter((m) => m.role === 'system')
    .map((m) => String(m.content))
    .join('\n');
}

/** The role of a request. */
export function roleOf(req: FakeRequest): Role {
  const system = systemOf(req);
  if (system.includes('You are the caller in a test call')) return 'tester';
  if (system.includes('You extract structured data')) return 'extractor';
  if (system.includes('You are a judge')) return 'judge';
  return 'target';
}

/** How many requests of its role came before this one, by role (0-based). */
export type RoleHandlers = Record<Role, (req: FakeRequest, n: number) => FakeReply | Promise<FakeReply>>;

/** A fake-model script answering each role with its handler; `n` counts that role's requests. */
export function byRole(handlers: RoleHandlers): FakeScript {
  const counts: Record<Role, number> = { tester: 0, target: 0, extractor: 0, judge: 0 };
  return (req) => {
    const role = roleOf(req);
    return handlers[role](req, counts[role]++);
  };
}

/** Whether the tester has spoken before in this conversation (its own turns are `assistant` there). */
export function testerTurn(req: FakeRequest): number {
  const messages = (req.body.messages as { role: string }[] | undefined) ?? [];
  return messages.filter((m) => m.role === 'assistant').length;
}

/** The transcript an extractor was given. */
export function transcriptIn(req: FakeRequest): string {
  const messages = (req.body.messages as { role: string; content: unknown }[] | undefined) ?? [];
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => String(m.content))
    .join('\n');
}
