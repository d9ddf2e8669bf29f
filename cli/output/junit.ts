// JUnit XML of a `voice test` report, in the shape Jenkins' JUnit schema accepts (and GitHub,
// GitLab and CircleCI render): one testsuite per suite (plus one for evals), one testcase per
// simulation iteration, the failure message on each failed one. A tiny writer of our own: the
// common library always writes a `skipped` attribute on <testsuites>, which that schema refuses.
// Each testsuite's properties say which case each classname is (`voice.case.KIND/ID`) and, for a
// shard, which slice of which partition it was: `voice test merge` reads them back (junit-read.ts).
import type { TestReport } from '#core/evals/index';
import { MERGE_SUITE } from './junit-read.js';

/** Text escaped for XML attributes and content; characters XML 1.0 forbids are dropped. */
export function xmlEscape(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

interface Case {
  classname: string;
  name: string;
  seconds?: number;
  failure?: string;
  output?: string;
}

function seconds(ms: number | undefined): string {
  return ((ms ?? 0) / 1000).toFixed(3);
}

function suiteXml(name: string, cases: readonly Case[], stamp: string, properties: readonly [string, string][]): string {
  const failures = cases.filter((c) => c.failure !== undefined).length;
  const time = cases.reduce((t, c) => t + (c.seconds ?? 0), 0);
  const lines = [`  <testsuite name="${xmlEscape(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0" time="${time.toFixed(3)}" timestamp="${stamp}">`];
  if (properties.length) {
    lines.push('    <properties>');
    for (const [k, v] of properties) lines.push(`      <property name="${xmlEscape(k)}" value="${xmlEscape(v)}"/>`);
    lines.push('    </properties>');
  }
  for (const c of cases) {
    const open = `    <testcase classname="${xmlEscape(c.classname)}" name="${xmlEscape(c.name)}" time="${(c.seconds ?? 0).toFixed(3)}"`;
    if (c.failure === undefined && !c.output) {
      lines.push(`${open}/>`);
      continue;
    }
    lines.push(`${open}>`);
    if (c.failure !== undefined) lines.push(`      <failure message="${xmlEscape(c.failure.split('\n')[0] ?? '')}" type="AssertionError">${xmlEscape(c.failure)}</failure>`);
    if (c.output) lines.push(`      <system-out>${xmlEscape(c.output)}</system-out>`);
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>');
  return lines.join('\n');
}

/** The report as a JUnit XML document; `problems` (of a merge) become failed cases of their own suite, so CI shows them. */
export function junitXml(report: TestReport, now = new Date(), problems: readonly string[] = []): string {
  const stamp = now.toISOString().slice(0, 19);
  const suites = new Map<string, Case[]>();
  const keys = new Map<string, [string, string][]>();
  const own = (suite: string, key: string, classname: string): void => void keys.set(suite, [...(keys.get(suite) ?? []), [`voice.case.${key}`, classname]]);
  for (const sim of report.simulations) {
    const suite = sim.suite ?? 'simulations';
    const cases = suites.get(suite) ?? [];
    own(suite, `simulations/${sim.id}`, `${suite}.${sim.id}`);
    for (const it of sim.iterations) {
      const evaluations = it.evaluations
        .map(
          (e) =>
            `${String(e.name)}${e.path ? `.${String(e.path)}` : ''} ${String(e.comparator)} ${JSON.stringify(e.expectedValue)}: extracted ${JSON.stringify(e.extractedValue)} (${e.isSkipped ? 'skipped' : e.passed ? 'passed' : 'failed'}${e.required === false ? ', informational' : ''})`,
        )
        .join('\n');
      const output = evaluations || it.detail;
      cases.push({
        classname: `${suite}.${sim.id}`,
        name: `${sim.name} #${it.iteration}`,
        seconds: (it.ms ?? 0) / 1000,
        ...(it.passed ? {} : { failure: `${sim.verdict === 'flaky' ? `Flaky: passed ${sim.passed} of ${sim.iterations.length}. ` : ''}${it.reason ?? 'failed'}` }),
        ...(output ? { output } : {}),
      });
    }
    suites.set(suite, cases);
  }
  if (report.evals.length)
    suites.set(
      'evals',
      report.evals.flatMap((e): Case[] => {
        own('evals', `evals/${e.id}`, `evals.${e.id}`);
        const latency = e.latency
          ? [
              ...e.latency.turns.map((t) => `turn ${t.turn}: first token ${t.firstTokenMs} ms${t.budgetMs ? ` (budget ${t.budgetMs} ms)` : ''}${t.replayed ? ', replayed' : ''}`),
              ...e.latency.notes,
            ].join('\n')
          : '';
        const output = latency ? { output: latency } : {};
        if (!e.attempts) return [{ classname: `evals.${e.id}`, name: e.name, seconds: e.ms / 1000, ...(e.passed ? {} : { failure: e.reason ?? 'failed' }), ...output }];
        const passed = e.attempts.filter((a) => a.passed).length;
        return e.attempts.map((a, i) => ({
          classname: `evals.${e.id}`,
          name: `${e.name} #${i + 1}`,
          seconds: a.ms / 1000,
          ...(a.passed ? {} : { failure: `${e.verdict === 'flaky' ? `Flaky: passed ${passed} of ${e.attempts?.length ?? 0}. ` : ''}${a.reason ?? 'failed'}` }),
        }));
      }),
    );
  if (problems.length)
    suites.set(
      MERGE_SUITE,
      problems.map((p, i) => ({ classname: 'voice-test-merge', name: `merge problem ${i + 1}`, failure: p })),
    );
  const all = [...suites.values()].flat();
  const failures = all.filter((c) => c.failure !== undefined).length;
  const shard = report.shard;
  const run: [string, string][] = [['voice.target', `${report.target.type} ${report.target.label}`]];
  if (shard) run.push(['voice.shard', `${shard.index}/${shard.total}`], ['voice.partition', shard.partition], ['voice.cases', String(shard.cases)], ['voice.balancedBy', shard.balancedBy]);
  const body = [...suites.entries()].map(([name, cases]) => suiteXml(name, cases, stamp, [...run, ...(keys.get(name) ?? [])]));
  // An empty shard still says which it was, so a merge knows it ran.
  if (!body.length && shard) body.push(suiteXml('voice test', [], stamp, run));
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="voice test" tests="${all.length}" failures="${failures}" errors="0" time="${seconds(report.ms)}">`,
    ...body,
    '</testsuites>',
    '',
  ].join('\n');
}
