// voice-agent-audio: speech synthesis real-time factor per side (CPU seconds of synthesis, word
// timings included, per second of speech made; budget <= 0.1) and voice activity detection's CPU
// time per second of audio (budget <= 0.02 s, shown as 20 ms), both as this process's CPU time.
// Each synthesis round says lines no earlier round said, so new words keep arriving as on real
// calls; the first-use load times (compiling the synthesizer, reading the model) are INFO rows.
import { addNoise, concat, createVadStream, detectSpeech, resample, synthesize, warm, type Pcm } from 'voice-agent-audio';
import { errorRow, row } from './lib/stats.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';

const bench = 'audio';

const ASSISTANT = [
  'Thanks for calling Riverside Dental, this is Ava. How can I help you today?',
  'I can move your cleaning to Thursday at ten in the morning. Would that work for you?',
  'Your order shipped yesterday and should arrive by Friday afternoon.',
  'I am sorry about the wait. Let me check the status of your refund right now.',
  'We are open from eight to six on weekdays, and until noon on Saturdays.',
  'Could you spell your last name for me, please?',
  'Your account ending in four four seven two is now up to date.',
  'I have booked a table for four people at seven thirty this evening.',
  'The technician will arrive between one and three, and will call twenty minutes ahead.',
  'Is there anything else I can help you with today?',
  'Your prescription is ready for pickup at the Main Street pharmacy.',
  'I will transfer you to our billing team, one moment please.',
  'Your flight to Denver departs at nine fifteen from gate twelve.',
  'We received your payment of forty dollars on the third of March.',
  'To reset your password, I will send a link to the email on file.',
  'Our return window is thirty days from the date of delivery.',
];
const CUSTOMER = [
  'Hi, I need to reschedule my appointment.',
  'Yeah, Thursday works.',
  'Where is my package?',
  'I still have not received my refund.',
  'What time do you close on Saturday?',
  'Sure, it is spelled M U R P H Y.',
  'Can I pay my bill over the phone?',
  'A table for four, please.',
  'When will the technician get here?',
  'No, that is all, thank you.',
  'Is my prescription ready yet?',
  'I think I was charged twice.',
  'Which gate does my flight leave from?',
  'Did you get my payment?',
  'I forgot my password again.',
  'Can I still return these shoes?',
];

const cpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** CPU seconds per second of speech for one side's lines. */
async function synthesisRound(lines: string[], voice: 'assistant' | 'customer'): Promise<number> {
  const before = cpuSeconds();
  let seconds = 0;
  for (const line of lines) seconds += (await synthesize(line, { voice })).duration;
  return (cpuSeconds() - before) / seconds;
}

/** A customer channel of about 80 s: lines with pauses between them (digital silence, as a simulated caller's). */
async function customerTrack(): Promise<Pcm> {
  const parts: Array<Pcm | number> = [1];
  for (const line of CUSTOMER) parts.push(await synthesize(line, { voice: 'customer' }), 2.5);
  return concat(parts, 16000);
}

/** CPU milliseconds per second of audio of `detectSpeech` on the track, one figure per round. */
async function vadRounds(track: Pcm, rounds: number, ctx: BenchContext): Promise<number[]> {
  const out: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const before = cpuSeconds();
    const segments = await detectSpeech(track);
    out.push((1000 * (cpuSeconds() - before)) / (track.samples.length / track.sampleRate));
    if (segments.length !== CUSTOMER.length) ctx.log(`audio: VAD found ${segments.length} segments, expected ${CUSTOMER.length}`);
  }
  return out;
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  const loads = await warm();
  rows.push(row({ bench, metric: 'first use: compiling the synthesizer (Flite, 21.5 MB wasm)', unit: 'ms', figure: loads.synthesizerMs }));
  rows.push(row({ bench, metric: 'first use: reading the silero model (2.3 MB)', unit: 'ms', figure: loads.detectorMs }));
  const rounds = ctx.quick ? 1 : 7;
  const perRound = 2;
  // A warm-up round (the JIT), with lines of its own.
  await synthesisRound([ASSISTANT.at(-1) as string], 'assistant');
  await synthesisRound([CUSTOMER.at(-1) as string], 'customer');
  for (const voice of ['assistant', 'customer'] as const) {
    const pool = voice === 'assistant' ? ASSISTANT : CUSTOMER;
    const rtf: number[] = [];
    try {
      for (let r = 0; r < rounds; r++) rtf.push(await synthesisRound(pool.slice(r * perRound, r * perRound + perRound), voice));
      rows.push(
        row({
          bench,
          metric: `speech synthesis real-time factor, ${voice} voice (CPU s per s of speech, word timings included)`,
          unit: 'x',
          figure: rtf,
          budget: { op: '<=', limit: 0.1, on: 'figure' },
          note: `${rounds} rounds of ${perRound} lines each, none said before`,
        }),
      );
    } catch (error) {
      rows.push(errorRow(bench, `speech synthesis real-time factor, ${voice} voice`, error));
    }
  }
  const clean = await customerTrack();
  // Noise everywhere (10 dB SNR) is the hard case: no frame is digital silence, every one runs the whole model.
  const track = addNoise(clean, { snrDb: 10, seed: 1, color: 'pink' });
  const seconds = track.samples.length / 16000;
  rows.push(
    row({
      bench,
      metric: 'voice activity detection, CPU ms per s of audio (16 kHz, noise at 10 dB SNR throughout)',
      unit: 'ms/s',
      figure: await vadRounds(track, rounds, ctx),
      budget: { op: '<=', limit: 20, on: 'figure' },
      note: `${seconds.toFixed(0)} s track, ${rounds} rounds`,
    }),
  );
  rows.push(row({ bench, metric: 'voice activity detection, CPU ms per s of audio (the same track without noise: silences are digital)', unit: 'ms/s', figure: await vadRounds(clean, rounds, ctx) }));
  const at48 = resample(track, 48000);
  const before = cpuSeconds();
  const stream = await createVadStream({ sampleRate: 48000 });
  for (let at = 0; at < at48.samples.length; at += 960) stream.push(at48.samples.subarray(at, at + 960));
  stream.end();
  rows.push(
    row({ bench, metric: 'voice activity detection streamed at 48 kHz in 20 ms chunks (resampling included), CPU ms per s', unit: 'ms/s', figure: (1000 * (cpuSeconds() - before)) / seconds }),
  );
  return rows;
}

/** The audio package benchmark. */
const benchmark: Benchmark = { name: bench, title: 'speech synthesis and voice activity detection (voice-agent-audio)', run };

export default benchmark;
