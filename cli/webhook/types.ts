// The message types the webhook commands know (from core/messages, the one list), checked on
// the command line with the closest names first, and the judgement of a server's answer.
import { answeredMessageTypes, FINAL_TRANSCRIPTS, isServerMessageType, serverMessageTypes } from '#core/messages/index';
import type { ServerMessageType } from '#core/messages/index';
import { messageProblems as builtMessageProblems } from '#core/messages/testing';
import { validateServerMessageResponse } from '#core/schemas/validate';
import { usageError } from '../errors.js';
import { closestFirst, suggestion } from '#core/schemas/closest';

/** A known type, or a usage error listing the known ones (closest first when one is close enough to suggest). */
export function checkType(typed: string, what = 'message type'): ServerMessageType {
  if (isServerMessageType(typed)) return typed;
  const hint = 'voice trigger --list shows them, and which ones expect an answer.';
  const best = suggestion(typed, serverMessageTypes);
  if (!best) throw usageError(`Unknown ${what} "${typed}".\nKnown types: ${serverMessageTypes.join(', ')}`, hint);
  throw usageError(`Unknown ${what} "${typed}". Did you mean ${best}?\nKnown types, closest first: ${closestFirst(typed, serverMessageTypes).join(', ')}`, hint);
}

/** Checks every name of a `--events` list (the final-transcripts subscription name is accepted too). */
export function checkTypes(names: readonly string[], flag: string): string[] {
  for (const n of names) if (n !== FINAL_TRANSCRIPTS) checkType(n, `type in ${flag}`);
  return [...new Set(names)];
}

/** Judges a server's answer as the platform reads it (core decides, for the emulator's calls too). */
export { judgeAnswer } from '#core/messages/answers';
export type { AnswerVerdict } from '#core/messages/answers';

/** What is wrong with a message about to be sent (empty when it fits its published schema). */
export async function messageProblems(message: Record<string, unknown>): Promise<string[]> {
  // The same judge the emulator's tests use (it knows `assistant.started` and the schema's known defects).
  return (await builtMessageProblems([message])).map((p) => p.replace(/^[^:]+: /, ''));
}

/** Compiles the answer schemas in the background, so the first answers are judged without delay. */
export function warmJudge(): void {
  void (async () => {
    for (const type of answeredMessageTypes) await validateServerMessageResponse(type, {});
  })().catch(() => undefined);
}
