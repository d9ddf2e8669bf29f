// The gitops engine's errors: bad input found before any request, and an apply that stopped.
import type { Problem } from './files.js';
import { VoiceError } from '../errors.js';

/** Shows a problem as `file:line:col: message`. */
export function showProblem(p: Problem): string {
  return `${p.file}${p.line ? `:${p.line}${p.col ? `:${p.col}` : ''}` : ''}: ${p.message}`;
}

/** The files (or the arguments) are wrong; nothing was sent. */
export class GitopsInputError extends VoiceError {
  constructor(
    readonly problems: readonly Problem[],
    summary?: string,
  ) {
    super(summary ?? `${problems.length} problem${problems.length === 1 ? '' : 's'} in the resource files:\n${problems.map((p) => `  ${showProblem(p)}`).join('\n')}`);
    this.name = 'GitopsInputError';
  }
}

/** One change an apply made. */
export interface Done {
  action: 'create' | 'update' | 'delete';
  kind: string;
  id: string;
  uuid: string;
}

/** An apply that stopped at a failing request; what was done before it is recorded in the state. */
export class ApplyError extends VoiceError {
  constructor(
    readonly done: readonly Done[],
    readonly failed: { action: string; kind: string; id: string },
    override readonly cause: unknown,
  ) {
    super(`Apply stopped: ${failed.action} ${failed.kind}/${failed.id} failed: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ApplyError';
  }
}
