// The emulator's state endpoints beside its other `/__voice/` ones: health (readiness), reset,
// named snapshots, the export, and the id -> UUID map of a folder applied at start.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { IntervalHistogram } from 'node:perf_hooks';
import { HttpError } from '../errors.js';
import { sendJson } from '../http/io.js';
import type { EmulatorStates } from './state.js';
import { CONTROL_PATHS } from './paths.js';

/** Paths of the state endpoints. */
export const STATE_PATHS = {
  health: CONTROL_PATHS.health,
  reset: CONTROL_PATHS.reset,
  snapshots: CONTROL_PATHS.snapshots,
  state: CONTROL_PATHS.state,
  applied: CONTROL_PATHS.applied,
} as const;

/** What the endpoints work on. */
export interface StateRoutesDeps {
  states: EmulatorStates;
  /** Running calls now. */
  activeCalls: () => number;
  /** Throws a 401 unless the request may change state (the key, when one is set). */
  authorize: (header: string | undefined) => void;
}

const NAME = /^[A-Za-z0-9._-]{1,100}$/;

function method(req: IncomingMessage, wanted: string, path: string): void {
  if ((req.method ?? 'GET') !== wanted) throw new HttpError(405, `Use ${wanted} ${path}`);
}

function snapshots(req: IncomingMessage, res: ServerResponse, deps: StateRoutesDeps, rest: string): void {
  if (rest === '') {
    method(req, 'GET', STATE_PATHS.snapshots);
    return sendJson(res, 200, { names: deps.states.names() });
  }
  const [raw, action, extra] = rest.slice(1).split('/');
  const name = decodeURIComponent(raw ?? '');
  if (!NAME.test(name) || extra !== undefined || (action !== undefined && action !== 'restore')) {
    throw new HttpError(400, 'Snapshot names are 1-100 letters, digits, dots, dashes or underscores: POST /__voice/snapshots/NAME saves, POST /__voice/snapshots/NAME/restore restores');
  }
  method(req, 'POST', `${STATE_PATHS.snapshots}/${name}${action ? '/restore' : ''}`);
  deps.authorize(req.headers.authorization);
  if (!action) return sendJson(res, 201, deps.states.save(name));
  const done = deps.states.restore(name);
  if (!done) throw new HttpError(404, `No snapshot named "${name}" (saved ones: ${deps.states.names().join(', ') || 'none'})`);
  sendJson(res, 200, done);
}

// Event-loop delay over the last complete window of a few seconds, watched from the first health
// check on (an emulator nobody asks never pays for it): what a long soak plots beside memory.
const WINDOW_MS = 5000;
let loop: { histogram: IntervalHistogram; last: { p50: number; p99: number; max: number } | undefined } | undefined;
function loopDelay(): { p50: number; p99: number; max: number } | undefined {
  if (!loop) {
    const watched = { histogram: monitorEventLoopDelay({ resolution: 10 }), last: undefined as { p50: number; p99: number; max: number } | undefined };
    watched.histogram.enable();
    setInterval(() => {
      const h = watched.histogram;
      const ms = (ns: number): number => Math.round(ns / 1e4) / 100;
      watched.last = { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) };
      h.reset();
    }, WINDOW_MS).unref();
    loop = watched;
  }
  return loop.last;
}

/** The emulator process's memory and event-loop delay (`eventLoopDelayMs` appears once a window has passed since the first check). */
function processHealth(): Record<string, unknown> {
  const m = process.memoryUsage();
  const delay = loopDelay();
  return { rssBytes: m.rss, heapUsedBytes: m.heapUsed, ...(delay ? { eventLoopDelayMs: { windowSeconds: WINDOW_MS / 1000, ...delay } } : {}) };
}

/** Answers a state endpoint; returns false for any other path. */
export function stateRoutes(deps: StateRoutesDeps): (req: IncomingMessage, res: ServerResponse, path: string) => boolean {
  return (req, res, path) => {
    if (path === STATE_PATHS.health) {
      method(req, 'GET', path);
      sendJson(res, 200, { status: 'ok', activeCalls: deps.activeCalls(), process: processHealth() });
      return true;
    }
    if (path === STATE_PATHS.reset) {
      method(req, 'POST', path);
      deps.authorize(req.headers.authorization);
      sendJson(res, 200, deps.states.reset());
      return true;
    }
    if (path === STATE_PATHS.applied) {
      method(req, 'GET', path);
      sendJson(res, 200, deps.states.applied);
      return true;
    }
    if (path === STATE_PATHS.state) {
      method(req, 'GET', path);
      deps.authorize(req.headers.authorization);
      sendJson(res, 200, deps.states.export());
      return true;
    }
    if (path === STATE_PATHS.snapshots || path.startsWith(`${STATE_PATHS.snapshots}/`)) {
      snapshots(req, res, deps, path.slice(STATE_PATHS.snapshots.length));
      return true;
    }
    return false;
  };
}
