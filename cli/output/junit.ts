// JUnit XML of a `voice test` report, in the shape Jenkins' JUnit schema accepts (and GitHub,
// GitLab and CircleCI render): one testsuite per suite (plus one for evals), one testcase per
// simulation iteration, the failure message on each failed one. A tiny writer of our own: the
// common library always writes a `skipped` attribute on <testsuites>, which that schema refuses.
import type { TestReport } from 'voice-agent-core/testing';

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

function suiteXml(name: string, cases: readonly Case[], stamp: string): string {
  const failures = cases.filter((c) => c.failure !== undefined).length;
  const time = cases.reduce((t, c) => t + (c.seconds ?? 0), 0);
  const lines = [`  <testsuite name="${xmlEscape(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0" time="${time.toFixed(3)}" timestamp="${stamp}">`];
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

/** The report as a JUnit XML document. */
export function junitXml(report: TestReport, now = new Date()): string {
  const stamp = now.toISOString().slice(0, 19);
  const suites = new Map<string, Case[]>();
  for (const sim of report.simulations) {
    const suite = sim.suite ?? 'simulations';
    const cases = suites.get(suite) ?? [];
    for (const it of sim.iterations) {
      const evaluations = it.evaluations
        .map(
          (e) =>
            `${String(e.name)}${e.path ? `.${String(e.path)}` : ''} ${String(e.comparator)} ${JSON.stringify(e.expectedValue)}: extracted ${JSON.stringify(e.extractedValue)} (${e.isSkipped ? 'skipped' : e.passed ? 'passed' : 'failed'}${e.required === false ? ', informational' : ''})`,
        )
        .join('\n');
      cases.push({
        classname: `${suite}.${sim.id}`,
        name: `${sim.name} #${it.iteration}`,
        seconds: (it.ms ?? 0) / 1000,
        ...(it.passed ? {} : { failure: `${sim.verdict === 'flaky' ? `Flaky: passed ${sim.passed} of ${sim.iterations.length}. ` : ''}${it.reason ?? 'failed'}` }),
        ...(evaluations ? { output: evaluations } : {}),
      });
    }
    suites.set(suite, cases);
  }
  if (report.evals.length)
    suites.set(
      'evals',
      report.evals.map((e) => ({ classname: `evals.${e.id}`, name: e.name, seconds: e.ms / 1000, ...(e.passed ? {} : { failure: e.reason ?? 'failed' }) })),
    );
  const all = [...suites.values()].flat();
  const failures = all.filter((c) => c.failure !== undefined).length;
  const body = [...suites.entries()].map(([name, cases]) => suiteXml(name, cases, stamp));
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="voice test" tests="${all.length}" failures="${failures}" errors="0" time="${seconds(report.ms)}">`,
    ...body,
    '</testsuites>',
    '',
  ].join('\n');
}
