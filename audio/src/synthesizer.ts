// Speech synthesis off the caller's thread. Flite runs synchronously, so a line said on the main
// thread stops everything else there for its length (about 40 ms per second of speech): a local
// platform's timers, its REST answers, other calls' clocks. A synthesizer runs it on worker
// threads instead, each text on the first free thread. Where a text is cut is the caller's choice
// (the emulator cuts a line as the platform's voice `chunkPlan` cuts a reply and asks for each
// chunk, so its first words can be said while the rest is made, on the other thread); the
// synthesizer only spreads the texts it is given. Texts asked for `now` go before those asked for
// `ahead` (lines known before they are said); a text asked for while it is made is made once.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { synthesize, type Speech, type SynthesisOptions } from './synthesize.js';
import type { SynthesisJob } from './synthesis-worker.js';

/** How soon a text is needed: `now` (someone waits for it) goes before `ahead` (said later). */
export type Urgency = 'now' | 'ahead';

/** Says texts on worker threads (or on this one, where no thread can start), each text whole. */
export interface Synthesizer {
  /** The speech of `text`; `urgency` (default `now`) orders it among the texts waiting. */
  synthesize(text: string, options?: SynthesisOptions & { urgency?: Urgency }): Promise<Speech>;
  /** Worker threads it runs on (0: this thread). */
  readonly threads: number;
  /** Stops the threads; texts still waiting are refused. */
  close(): Promise<void>;
}

interface Waiting extends SynthesisJob {
  urgency: Urgency;
  key: string;
  done: Promise<Speech>;
  resolve(speech: Speech): void;
  reject(error: Error): void;
}

/** The thread's script: beside this module once built; from the sources, the built one in dist/. */
function workerScript(): URL | undefined {
  for (const path of ['./synthesis-worker.js', '../dist/synthesis-worker.js']) {
    const url = new URL(path, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}

/** A thread and the job it is saying. */
interface Thread {
  worker: Worker;
  busy?: Waiting;
}

/**
 * A synthesizer on `threads` worker threads (default: two, or one on a single core; 0, or no
 * built thread script: on this thread). Each thread loads its own synthesizer on first use.
 */
export function createSynthesizer(options: { threads?: number } = {}): Synthesizer {
  const script = options.threads === 0 ? undefined : workerScript();
  const size = script ? Math.max(1, options.threads ?? Math.min(2, availableParallelism())) : 0;
  const pool: Thread[] = [];
  const queue: Waiting[] = [];
  let next = 0;
  let closed = false;
  // A thread could not run (or died): what waits, and everything after, is said on this thread.
  let broken = size === 0;
  const inThread = (job: Waiting): void => void synthesize(job.text, job.options).then(job.resolve, job.reject);
  const fail = (): void => {
    broken = true;
    for (const t of pool.splice(0)) {
      if (t.busy) inThread(t.busy);
      void t.worker.terminate();
    }
    for (const job of queue.splice(0)) inThread(job);
  };
  const start = (): Thread => {
    // Node options that only make sense for the main script (`--input-type` with `--eval`) stop a thread from starting.
    const execArgv = process.execArgv.filter((a) => !/^--(input-type|eval|print)\b|^-[ep]$/.test(a));
    const thread: Thread = { worker: new Worker(script as URL, { execArgv }) };
    thread.worker.on('message', (answer: { id: number; speech?: Speech; error?: string }) => {
      const job = thread.busy;
      thread.busy = undefined;
      if (job && job.id === answer.id) {
        if (answer.speech) job.resolve(answer.speech);
        else job.reject(new Error(answer.error ?? 'synthesis failed'));
      }
      pump();
    });
    thread.worker.on('error', () => fail());
    thread.worker.on('exit', () => {
      if (!closed && pool.includes(thread)) fail();
    });
    pool.push(thread);
    return thread;
  };
  const pump = (): void => {
    if (closed || broken) return;
    for (;;) {
      const idle = pool.find((t) => !t.busy) ?? (pool.length < size && queue.length ? start() : undefined);
      if (!idle || !queue.length) break;
      const at = queue.findIndex((j) => j.urgency === 'now');
      const job = queue.splice(at < 0 ? 0 : at, 1)[0] as Waiting;
      idle.worker.ref();
      idle.busy = job;
      idle.worker.postMessage({ id: job.id, text: job.text, options: job.options } satisfies SynthesisJob);
    }
    // Idle threads do not keep the process alive.
    for (const t of pool) if (!t.busy) t.worker.unref();
  };
  /** A text's speech: a job, or the one already waiting for the same text (as urgent as the latest ask). */
  const said = (text: string, o: SynthesisOptions, urgency: Urgency): Promise<Speech> => {
    if (broken) return synthesize(text, o);
    const key = `${o.voice ?? ''}\n${o.sampleRate ?? ''}\n${text}`;
    const waiting = queue.find((j) => j.key === key) ?? pool.find((t) => t.busy?.key === key)?.busy;
    if (waiting) {
      if (urgency === 'now') waiting.urgency = 'now';
      return waiting.done;
    }
    let settle!: Pick<Waiting, 'resolve' | 'reject'>;
    const done = new Promise<Speech>((resolve, reject) => (settle = { resolve, reject }));
    queue.push({ id: next++, text, options: o, urgency, key, done, ...settle });
    pump();
    return done;
  };
  return {
    threads: size,
    async synthesize(text, { urgency = 'now', ...o } = {}) {
      if (closed) throw new Error('the synthesizer is closed');
      return said(text, o, urgency);
    },
    async close() {
      closed = true;
      for (const job of [...pool.flatMap((t) => (t.busy ? [t.busy] : [])), ...queue.splice(0)]) job.reject(new Error('the synthesizer is closed'));
      await Promise.all(pool.splice(0).map((t) => t.worker.terminate()));
    },
  };
}
