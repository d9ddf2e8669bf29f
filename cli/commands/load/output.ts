// What `voice load` shows: the live line on a terminal, the table per message type at the end,
// the JSON document, and the verdict (exit 1 on a missed deadline or too many errors).
import type { LiveFigures, LoadResult } from '#core/load/index';

const ms = (v: number): string => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

/** The live line: calls running and done, deliveries per second, p95 so far, misses. */
export function liveLine(f: LiveFigures): string {
  return `calls running ${f.running}  done ${f.done}  deliveries ${f.deliveries} (${f.perSecond.toFixed(0)}/s)  p95 ${ms(f.p95)} ms  deadline misses ${f.misses}`;
}

function errorsText(errors: Record<string, number>): string {
  const parts = Object.entries(errors).map(([k, n]) => `${k}×${n}`);
  return parts.length ? parts.join(' ') : '-';
}

/** The table per message type and the summary lines under it. */
export function resultText(r: LoadResult, verdict: Verdict): string {
  const head = ['type', 'count', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', 'misses', 'deadline'];
  const rows = r.types.map((t) => [t.type, String(t.count), ms(t.p50), ms(t.p95), ms(t.p99), errorsText(t.errors), String(t.misses), `${t.deadlineSeconds} s`]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === 0 || i === 5 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join('  ')
      .trimEnd();
  const reasons = Object.entries(r.calls.endedReasons)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const faults = Object.entries(r.faults)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return [
    line(head),
    ...rows.map(line),
    '',
    `${r.calls.started} calls (${r.calls.inbound} inbound, ${r.calls.outbound} outbound), ${r.calls.ended} ended: ${reasons || 'none'}`,
    `${r.deliveries} deliveries in ${(r.elapsedMs / 1000).toFixed(1)} s (${r.perSecond.toFixed(0)}/s), ${r.errors} failed, ${r.misses} past their deadline`,
    ...(faults ? [`faults injected: ${faults}`] : []),
    verdict.ok ? 'PASS' : `FAIL: ${verdict.reasons.join('; ')}`,
    '',
  ].join('\n');
}

/** The run's verdict. */
export interface Verdict {
  ok: boolean;
  reasons: string[];
  errorRate: number;
}

/** Fails on any deadline miss and on an error share above `maxErrorsPercent`. */
export function verdictOf(r: LoadResult, maxErrorsPercent: number): Verdict {
  const errorRate = r.deliveries ? (100 * r.errors) / r.deliveries : 0;
  const reasons: string[] = [];
  if (r.misses) reasons.push(`${r.misses} deadline${r.misses === 1 ? '' : 's'} missed`);
  if (errorRate > maxErrorsPercent) reasons.push(`${errorRate.toFixed(2)}% of deliveries failed (--max-errors ${maxErrorsPercent}%)`);
  if (!r.deliveries) reasons.push('no delivery was made');
  return { ok: reasons.length === 0, reasons, errorRate };
}

/** The `--json` document: everything but the per-delivery samples (those go to the report page). */
export function resultJson(r: LoadResult, verdict: Verdict): Record<string, unknown> {
  const { samples: _samples, ...rest } = r;
  return { ok: verdict.ok, reasons: verdict.reasons, errorRatePercent: Number(verdict.errorRate.toFixed(3)), ...rest };
}
