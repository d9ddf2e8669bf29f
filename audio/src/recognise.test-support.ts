// An independent recogniser for tests: Debian's pocketsphinx (`apt-get install pocketsphinx
// pocketsphinx-en-us`) decoding a WAV file against a JSGF grammar of the expected phrases and decoys.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Debian 12 ships pocketsphinx 0.8 (`pocketsphinx_continuous -infile`); Debian 13 ships 5.0
// (`pocketsphinx single FILE`, JSON out). Either is used, whichever is installed.
const found = (program: string): boolean => spawnSync(program, ['-help'], { stdio: 'ignore' }).error === undefined;
const decoder = found('pocketsphinx_continuous') ? 'continuous' : found('pocketsphinx') ? 'single' : undefined;

/** Why recognition tests cannot run here, or undefined when pocketsphinx is installed. */
export const pocketsphinxMissing: string | undefined = decoder ? undefined : 'pocketsphinx is not installed (apt-get install pocketsphinx pocketsphinx-en-us)';

/** On CI the recogniser is installed by .ci/run: a missing one fails there instead of skipping. */
export const skipRecognition: boolean = pocketsphinxMissing !== undefined && !process.env.CI;

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
    const file = join(dir, 'audio.wav');
    writeFileSync(file, wav);
    if (decoder === 'single') {
      const out = execFileSync('pocketsphinx', ['-jsgf', gram, '-loglevel', 'FATAL', 'single', file], { encoding: 'utf8', timeout: 60_000 });
      return out
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { t: string }).t)
        .join(' ')
        .trim();
    }
    const out = execFileSync('pocketsphinx_continuous', ['-infile', file, '-jsgf', gram, '-logfn', '/dev/null'], { encoding: 'utf8', timeout: 60_000 });
    return out.trim().split('\n').join(' ').trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
