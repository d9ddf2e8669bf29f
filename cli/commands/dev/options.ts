// The options `voice dev` and `voice dev exec` share, and their parsers.
import { EMULATOR_PORT } from '#core/hosts';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
// Small and dependency-free: the flag is checked with the emulator's own rule before it loads.
import { normaliseOrigin } from '#core/emulator/http/cors';
import { portFlag } from '../../webhook/flags.js';

/** Default port of `voice dev` (the one `voice --local` talks to). */
export const DEV_PORT = EMULATOR_PORT;

/** The parsed options of `voice dev`. */
export interface DevOptions {
  port: number;
  host: string;
  data?: string;
  apiKey?: string;
  seed?: boolean;
  quiet?: boolean;
  corsOrigin?: string[];
  speed: number;
  keepCalls: number;
  scenario?: string;
  storageDir?: string;
  import?: string;
  exportOnExit?: string;
  apply?: string;
  readyFile?: string;
  /** False with --no-inspector. */
  inspector: boolean;
  /** False with --no-audio: calls run on the text timeline. */
  audio: boolean;
  /** OpenAI-compatible base URL for every assistant whose provider is not custom-llm. */
  llm?: string;
  llmKey?: string;
  /** One model name, or `provider/model=NAME` pairs. */
  llmModel?: string[];
  llmRecord?: string;
  llmReplay?: string;
}

/** Where `voice dev` writes; tests pass their own. */
export interface DevIo {
  out(text: string): void;
  err(text: string): void;
}

/** Parses a `--cors-origin` value (repeatable) into a normalised origin. */
function corsOriginFlag(value: string, previous: string[] | undefined): string[] {
  try {
    return [...(previous ?? []), normaliseOrigin(value)];
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

function speedFlag(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 10_000) throw new InvalidArgumentError('expected a number above 0, at most 10000 (e.g. 10 runs calls ten times faster).');
  return n;
}

function keepFlag(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number, 0 or more (e.g. 5000).');
  return n;
}

/** Parses `--llm`: an http(s) base URL. */
export function urlFlag(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected the base URL of an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 (Ollama).');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('expected an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1.');
  return value.replace(/\/+$/, '');
}

/** Parses `--llm-model` (repeatable): a name, or provider/model=NAME. */
export function modelFlag(value: string, previous: string[] | undefined): string[] {
  const eq = value.indexOf('=');
  if (!value.trim() || eq === 0 || eq === value.length - 1) throw new InvalidArgumentError('expected a model name (llama3.2) or provider/model=NAME (openai/gpt-4o-mini=llama3.2).');
  return [...(previous ?? []), value.trim()];
}

/** Adds the model options (`--llm*`) to a command that runs an emulator (`voice dev`, `voice mcp`). */
export function addModelOptions(cmd: Command): Command {
  return cmd
    .option('--llm <url>', 'OpenAI-compatible endpoint every assistant (but custom-llm ones) runs on: Ollama, llama.cpp, LM Studio, vLLM, a hosted API', urlFlag)
    .option('--llm-key <key>', 'bearer key for --llm (default: VOICE_LLM_KEY); never written anywhere')
    .option('--llm-model <name>', 'model name for --llm, or provider/model=NAME to map one assistant model (repeatable)', modelFlag)
    .option('--llm-record <file>', 'write every model exchange to this cassette (for CI replays)')
    .option('--llm-replay <file>', 'answer model requests from this cassette; no model is called');
}

/** Adds the emulator's options to a command (`port` defaults to `defaultPort`). */
export function addDevOptions(cmd: Command, defaultPort: number): Command {
  return addModelOptions(cmd)
    .option('--port <port>', 'port to listen on (0 = any free port)', portFlag, defaultPort)
    .option('--host <host>', 'address to bind (loopback unless you say otherwise)', '127.0.0.1')
    .option('--data <file>', 'keep the data in this JSON file (loaded at start, saved after every change)')
    .option('--api-key <key>', 'require exactly this bearer key (default: any key is accepted)')
    .option('--seed', 'add sample assistants, calls, squads... so there is something to look at')
    .option('--quiet', 'do not log requests and deliveries on stderr')
    .option('--speed <n>', 'run the simulated clock N times faster (1 = real time: a call lasts tens of seconds)', speedFlag, 1)
    .option('--cors-origin <origin>', 'also let web pages on this origin call it (repeatable; loopback pages always may)', corsOriginFlag)
    .option('--keep-calls <n>', 'ended calls kept with their logs; older ones leave memory and the data file, oldest first', keepFlag, 1000)
    .option('--scenario <file>', 'what simulated customers say and do, turn by turn (YAML or JSON; see docs/local-platform.md)')
    .option('--storage-dir <dir>', "keep the org's storage buckets the emulator cannot reach (AWS S3, Azure) in this folder: call recordings, logs and reports land in <dir>/<bucket>/")
    .option('--import <file>', 'start from this snapshot (one --export-on-exit or --data wrote)')
    .option('--export-on-exit <file>', 'write every resource and call to this file when stopping (Ctrl-C, or the end of `exec`)')
    .option('--apply <dir>', 'apply this configuration-as-code folder at start, as `voice apply` does, and print the id -> UUID map')
    .option('--ready-file <file>', 'write the URL to this file once the emulator answers (for scripts)')
    .option('--no-inspector', 'do not serve the inspector page (calls, deliveries, requests and resources, live) at /__voice/inspector/')
    .option('--no-audio', 'calls without sound: no speech synthesis, voice activity detection or timing rules on audio (the text timeline)');
}
