// How `voice test` shows itself: a line per finished item on a terminal as runs go on, then a
// table (simulation, suite, passes, rate, verdict; evals below), the failures' reasons, a summary.
import type { Progress, TestReport } from '#core/evals/index';
import { dim, green, red, yellow } from './style.js';

/** A line of live progress (for stderr on a terminal). */
export function progressLine(p: Progress): string {
  if (p.kind === 'eval') return `  ${p.status === 'pass' ? green('✓') : red('✗')} eval ${p.eval}${p.reason ? dim(`: ${firstLine(p.reason)}`) : ''}\n`;
  const mark = p.status === 'passed' ? green('✓') : p.status === 'canceled' ? yellow('-') : red('✗');
  return `  ${mark} ${p.simulation} ${dim(`#${p.iteration}/${p.of}`)} ${p.status}${p.reason && p.status !== 'passed' ? dim(`: ${firstLine(p.reason)}`) : ''}\n`;
}

function firstLine(text: string): string {
  const line = short(text.split('\n')[0] ?? '');
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

// The how-to of a missing model is said once, after the summary.
function short(reason: string): string {
  return reason.startsWith('No model is configured') ? `${reason.split('. ')[0] as string}.` : reason;
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return (
    rows
      .map((r) =>
        r
          .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

function verdictText(v: string, color: boolean): string {
  if (!color) return v;
  return v === 'pass' ? green(v) : v === 'flaky' ? yellow(v) : red(v);
}

/** The result table and each failure's reason (for stdout). */
export function reportText(report: TestReport, color: boolean): string {
  const parts: string[] = [];
  if (report.simulations.length) {
    const rows = [['SIMULATION', 'SUITE', 'PASSED', 'RATE', 'VERDICT']];
    for (const s of report.simulations) rows.push([s.name, s.suite ?? '-', `${s.passed}/${s.iterations.length}`, `${Math.round(s.passRate * 100)}%`, s.verdict]);
    parts.push(color ? table(rows).replace(/ (pass|flaky|fail)$/gm, (_m, v: string) => ` ${verdictText(v, true)}`) : table(rows));
  }
  if (report.evals.length) {
    const rows = [['EVAL', 'RESULT']];
    for (const e of report.evals) rows.push([e.name, e.verdict]);
    parts.push(color ? table(rows).replace(/ (pass|flaky|fail)$/gm, (_m, v: string) => ` ${verdictText(v, true)}`) : table(rows));
  }
  const latency = report.evals.flatMap((e) =>
    e.latency
      ? [
          `  ${e.name}: ${e.latency.turns.map((t) => `turn ${t.turn} ${t.firstTokenMs} ms${t.budgetMs ? `/${t.budgetMs}` : ''}`).join(', ') || 'no timings'}${e.latency.judged ? ' (budgets judged)' : ''}${e.latency.notes.map((n) => `\n    ${n}`).join('')}`,
        ]
      : [],
  );
  if (latency.length) parts.push(`Model time to first token per judged turn (ms, /budget):\n${latency.join('\n')}\n`);
  const failures: string[] = [];
  for (const s of report.simulations) {
    for (const it of s.iterations) if (!it.passed) failures.push(`${s.name} #${it.iteration} (${s.file}): ${short(it.reason ?? it.status)}`);
  }
  for (const e of report.evals) if (!e.passed) failures.push(`eval ${e.name} (${e.file}): ${short(e.reason ?? 'failed')}`);
  if (failures.length) parts.push(`Failures:\n${failures.map((f) => `  ${f.replace(/\n/g, '\n    ')}`).join('\n')}\n`);
  return parts.join('\n');
}

/** One line saying how it went (for stderr). */
export function summaryLine(report: TestReport): string {
  const sims = report.simulations;
  const flaky = sims.filter((s) => s.verdict === 'flaky').length;
  const simPart = sims.length ? `${sims.filter((s) => s.verdict === 'pass').length} of ${sims.length} simulation(s) passed${flaky ? `, ${flaky} flaky` : ''}` : '';
  const flakyEvals = report.evals.filter((e) => e.verdict === 'flaky').length;
  const evalPart = report.evals.length ? `${report.evals.filter((e) => e.passed).length} of ${report.evals.length} eval(s) passed${flakyEvals ? `, ${flakyEvals} flaky` : ''}` : '';
  const what = [simPart, evalPart].filter(Boolean).join('; ') || 'nothing ran';
  const shard = report.shard ? ` (shard ${report.shard.index}/${report.shard.total})` : '';
  return `${report.ok ? green('PASS') : red('FAIL')} ${what} against ${report.target.type} ${report.target.label}${shard} (${(report.ms / 1000).toFixed(1)} s)\n`;
}
