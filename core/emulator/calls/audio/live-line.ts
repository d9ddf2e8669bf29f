// A line said on a live call from outside (`voice call say`, the inspector, `POST
// /__voice/calls/{id}/say`), checked: text (with `[0.8s]` pauses) said now or over the
// assistant at a point of its line, or keys.
import { HttpError } from '../../errors.js';
import type { LiveLine } from './engine.js';
import { KEYS } from './keypad.js';
import { lineProblem } from './utterance.js';

/** A live line from a request body `{ text, afterSeconds?, afterWords? }` or `{ dtmf }`; a 400 naming what is wrong. */
export function liveLineOf(body: Record<string, unknown>): LiveLine {
  const { text, dtmf, afterSeconds, afterWords } = body;
  if (dtmf !== undefined) {
    if (typeof dtmf !== 'string' || !KEYS.test(dtmf)) throw new HttpError(400, 'dtmf must be keypad keys: digits, *, # or A-D, e.g. { "dtmf": "1234#" }');
    if (text !== undefined) throw new HttpError(400, 'Send text or dtmf, not both');
    return { dtmf };
  }
  if (typeof text !== 'string' || !text.trim()) throw new HttpError(400, 'text is required: what the customer says, e.g. { "text": "I\'d like to book for Tuesday" } (or { "dtmf": "12#" } for keys)');
  const problem = lineProblem(text);
  if (problem) throw new HttpError(400, `text cannot be said: ${problem}`);
  if (afterSeconds !== undefined && afterWords !== undefined) throw new HttpError(400, 'Give afterSeconds or afterWords, not both');
  if (afterSeconds !== undefined && (typeof afterSeconds !== 'number' || !(afterSeconds >= 0)))
    throw new HttpError(400, "afterSeconds must be 0 or more: how far into the assistant's line the customer starts talking over it");
  if (afterWords !== undefined && (typeof afterWords !== 'number' || !Number.isInteger(afterWords) || afterWords < 1))
    throw new HttpError(400, "afterWords must be a whole number, 1 or more: after how many of the assistant's words the customer starts talking over it");
  return { text: text.trim(), ...(afterSeconds !== undefined ? { afterSeconds } : {}), ...(afterWords !== undefined ? { afterWords } : {}) };
}
