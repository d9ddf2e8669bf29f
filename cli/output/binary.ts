// File answers (call recordings, packet captures, log files): written to `--out FILE`, or to
// stdout when it is piped, never printed on a terminal where the bytes would garble it.
import { writeFileSync } from 'node:fs';
import { CliError, ExitCode, usageError } from '../errors.js';
import { err } from '../redact.js';
import { green } from './style.js';

/** Where a file answer goes: the `--out` path, or stdout (must not be a terminal). */
export function checkBinaryTarget(outPath: string | undefined, command: string, stdout: { isTTY?: boolean } = process.stdout): void {
  if (outPath === undefined && stdout.isTTY) {
    throw usageError(`${command} answers with a file, which is not printed on a terminal`, `Save it with --out FILE (e.g. --out call.wav), or pipe it: voice ${command} <id> > call.wav`);
  }
}

/** Writes the bytes of a file answer to `--out` (saying where on stderr) or to stdout. */
export async function writeBinary(bytes: Uint8Array, outPath: string | undefined): Promise<void> {
  if (outPath === undefined) {
    await new Promise<void>((resolve, reject) => process.stdout.write(bytes, (e) => (e ? reject(e) : resolve())));
    return;
  }
  try {
    writeFileSync(outPath, bytes);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'its folder does not exist' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new CliError(`Cannot write ${outPath}: ${why}`, ExitCode.Failure);
  }
  err(`${green('✓')} Saved ${bytes.length} bytes to ${outPath}\n`);
}
