// The synthesis thread: says texts one at a time for synthesizer.ts and hands the samples back
// without copying them. Built to dist/synthesis-worker.js, beside the package's module.
import { parentPort } from 'node:worker_threads';
import { synthesize, type SynthesisOptions } from './synthesize.js';

/** A text to say, numbered so the answer finds its caller. */
export interface SynthesisJob {
  id: number;
  text: string;
  options: SynthesisOptions;
}

const port = parentPort;
if (port) {
  port.on('message', (job: SynthesisJob) => {
    synthesize(job.text, job.options).then(
      (speech) => port.postMessage({ id: job.id, speech }, [speech.samples.buffer as ArrayBuffer]),
      (error: unknown) => port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
