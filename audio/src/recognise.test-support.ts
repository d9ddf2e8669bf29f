// An independent recogniser for tests: Debian's pocketsphinx (`apt-get install pocketsphinx
// pocketsphinx-en-us`) decoding a WAV file against a JSGF grammar of the expected phrases and decoys.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DECODER = 'pocketsphinx_continuous';

/** Why recognition tests cannot run here, or undefined when pocketsphinx is installed. */
export const pocketsphinxMissing: string | undefined =
  spawnSync(DECODER, ['-help'], { stdio: 'ignore' }).error === undefined ? undefined : `${DECODER} is not installed (apt-get install pocketsphinx pocketsphinx-en-us)`;

/** A phrase as the grammar takes it: lower case words, no punctuation. */
export function grammarWords(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What pocketsphinx hears in a 16 kHz mono 16-bit WAV, choosing among `phrases` (empty when nothing). */
export function recognise(wav: Uint8Array, phrases: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'voice-audio-asr-'));
  try {
    const gram = join(dir, 'lines.gram');
    const alternatives = [...new Set(phrases.map(grammarWords))].join('\n  | ');
    writeFileSync(gram, `#JSGF V1.0;\ngrammar lines;\npublic <line> = ${alternatives};\n`);
    writeFileSync(join(dir, 'audio.wav'), wav);
    const out = execFileSync(DECODER, ['-infile', join(dir, 'audio.wav'), '-jsgf', gram, '-logfn', '/dev/null'], { encoding: 'utf8', timeout: 60_000 });
    return out.trim().split('\n').join(' ').trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
