// Files a command writes after a long run (a report page, JUnit XML, an exported script): checked
// before the run starts, so a bad path costs seconds, not the whole run and a stack trace.
import { accessSync, constants, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError, ExitCode, usageError } from '../errors.js';

function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EEXIST' || code === 'ENOTDIR') return 'a file stands where its folder should be';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  return (e as Error).message;
}

/** Makes the folder of `file` and checks it can be written; a usage error (exit 2) naming `flag` when not. */
export function prepareOutFile(file: string, flag: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    accessSync(dirname(file), constants.W_OK);
    if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  } catch (e) {
    throw usageError(`${flag} ${file}: cannot write there (${reason(e)}).`);
  }
}

/** Writes `file` (its folder made when missing); a clear failure (exit 1) instead of a stack trace. */
export function writeOutFile(file: string, text: string, flag: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  } catch (e) {
    throw new CliError(`${flag} ${file}: could not write it (${reason(e)}).`, ExitCode.Failure);
  }
}
