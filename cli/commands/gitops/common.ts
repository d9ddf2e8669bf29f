// What pull, plan and apply share: the resources directory, the account's state file, and the
// mapping of the engine's errors to exit codes (bad files: 2; a failed apply: 1).
import { join } from 'node:path';
import type { Command } from 'commander';
import { GitopsInputError, stateFileName } from '#core/gitops/index';
import type { Client } from 'voice-agent-core/client';
import type { Context } from '../../context.js';
import { contextOf } from '../../context.js';
import { usageError } from '../../errors.js';
import { DEFAULT_BASE_URL } from '../../settings.js';

/** Options of the gitops commands. */
export interface GitopsOptions {
  dir: string;
  state?: string;
  prune?: boolean;
  force?: boolean;
}

/** What a gitops command works with. */
export interface GitopsRun {
  ctx: Context;
  opts: GitopsOptions;
  client: Client;
  /** The resources directory as given (relative paths stay relative in messages). */
  dir: string;
  statePath: string;
  /** `profile` for the hosted API, `profile.host-port` for any other URL (the emulator). */
  account: string;
  baseUrl: string;
}

/** The account label a state file is named after. */
export function accountLabel(profile: string, baseUrl: string): string {
  if (baseUrl === DEFAULT_BASE_URL) return profile;
  const url = new URL(baseUrl);
  return `${profile}.${url.hostname}${url.port ? `-${url.port}` : ''}${url.pathname.replace(/\/+$/, '').replace(/\//g, '-')}`;
}

/** Resolves the directory, the account, its state file and a client. */
export function gitopsRun(cmd: Command): GitopsRun {
  const ctx = contextOf(cmd);
  const opts = cmd.optsWithGlobals<GitopsOptions>();
  const s = ctx.settings();
  ctx.requireKey();
  const account = accountLabel(s.profile, s.baseUrl);
  const dir = opts.dir;
  const statePath = opts.state ?? join(dir, stateFileName(account));
  return { ctx, opts, client: ctx.client({ transport: 'http' }), dir, statePath, account, baseUrl: s.baseUrl };
}

/** Runs an engine call, turning bad input into a usage error (exit 2). */
export async function checked<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof GitopsInputError) throw usageError(e.message, e.problems.length ? 'Nothing was sent; fix the files and run again.' : undefined);
    throw e;
  }
}

/** Adds the options every gitops command has. */
export function withDir(cmd: Command): Command {
  return cmd.option('--dir <path>', 'the resources directory', 'resources').option('--state <file>', 'the state file (default: <dir>/.voice-state.<account>.json, one per profile and API URL)');
}
