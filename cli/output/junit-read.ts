// Reads back a JUnit file `voice test --junit` wrote, as a report `voice test merge` can merge: the
// properties of each testsuite name the case of each classname (`voice.case.KIND/ID`) and the shard
// the run was; each testcase is an iteration (`NAME #N`) or an eval, failed when it has a <failure>.
// A small reader of the XML this writer makes (elements, attributes, text, CDATA, entities).
import type { EvalReport, IterationReport, ShardInfo, SimulationReport, TestReport } from '#core/evals/index';

interface Node {
  name: string;
  attrs: Record<string, string>;
  children: Node[];
  text: string;
}

/** The testsuite a merge writes its own failures into (a missing shard ...). */
export const MERGE_SUITE = 'voice test merge';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1]?.toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : (ENTITIES[e] ?? m),
  );
}

/** Parses XML into element nodes; throws an Error naming what is wrong. */
export function parseXml(xml: string): Node {
  const root: Node = { name: '#root', attrs: {}, children: [], text: '' };
  const stack = [root];
  const re = /<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!DOCTYPE[^>]*>|<\/([\w:.-]+)\s*>|<([\w:.-]+)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
  let m: RegExpExecArray | null;
  let at = 0;
  while ((m = re.exec(xml))) {
    if (m.index !== at) throw new Error(`unexpected text at character ${at}`);
    at = re.lastIndex;
    const top = stack[stack.length - 1] as Node;
    if (m[1] !== undefined) top.text += m[1];
    else if (m[2]) {
      if (top.name !== m[2]) throw new Error(`</${m[2]}> closes <${top.name}>`);
      stack.pop();
    } else if (m[3]) {
      const attrs: Record<string, string> = {};
      for (const a of (m[4] ?? '').matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs[a[1] as string] = decode(a[2] ?? a[3] ?? '');
      const node: Node = { name: m[3], attrs, children: [], text: '' };
      top.children.push(node);
      if (!m[5]) stack.push(node);
    } else if (m[6] !== undefined) top.text += decode(m[6]);
  }
  if (at !== xml.length) throw new Error(`unexpected text at character ${at}`);
  if (stack.length !== 1) throw new Error(`<${(stack[stack.length - 1] as Node).name}> is not closed`);
  return root;
}

const kids = (n: Node, name: string): Node[] => n.children.filter((c) => c.name === name);

function shardOf(props: Map<string, string>): ShardInfo | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(props.get('voice.shard') ?? '');
  if (!m) return undefined;
  return {
    index: Number(m[1]),
    total: Number(m[2]),
    cases: Number(props.get('voice.cases') ?? 0),
    picked: 0,
    partition: props.get('voice.partition') ?? '',
    balancedBy: props.get('voice.balancedBy') === 'times' ? 'times' : 'count',
  };
}

/** A report from a JUnit file `voice test` wrote; a string says why it is not one. */
export function reportFromJunit(xml: string): TestReport | string {
  let doc: Node;
  try {
    doc = parseXml(xml);
  } catch (e) {
    return `it is not XML (${(e as Error).message})`;
  }
  const top = kids(doc, 'testsuites')[0];
  if (!top) return 'it is not JUnit XML (no <testsuites>)';
  const sims = new Map<string, SimulationReport>();
  const evals = new Map<string, EvalReport>();
  let shard: ShardInfo | undefined;
  let target = '';
  // The failures a merge itself reported are not cases of the suite.
  for (const suite of kids(top, 'testsuite').filter((x) => x.attrs.name !== MERGE_SUITE)) {
    const props = new Map(kids(suite, 'properties').flatMap((p) => kids(p, 'property').map((x) => [x.attrs.name ?? '', x.attrs.value ?? ''] as const)));
    shard ??= shardOf(props);
    target ||= props.get('voice.target') ?? '';
    const caseOf = new Map([...props].filter(([k]) => k.startsWith('voice.case.')).map(([k, v]) => [v, k.slice('voice.case.'.length)]));
    for (const tc of kids(suite, 'testcase')) {
      const key = caseOf.get(tc.attrs.classname ?? '');
      if (!key) return `testcase ${tc.attrs.name ?? ''} (${tc.attrs.classname ?? ''}) names no case: was the file written by voice test --junit?`;
      const failure = kids(tc, 'failure')[0];
      const reason = failure ? (failure.text || failure.attrs.message || 'failed').replace(/^Flaky: passed \d+ of \d+\. /, '') : undefined;
      const ms = Math.round(Number(tc.attrs.time ?? 0) * 1000);
      const name = (tc.attrs.name ?? '').replace(/ #\d+$/, '');
      const id = key.slice(key.indexOf('/') + 1);
      const file = `${key.startsWith('evals/') ? 'evals' : 'simulations/tests'}/${id}`;
      if (key.startsWith('evals/')) {
        const e = evals.get(id);
        const attempt = { passed: !failure, ...(reason ? { reason } : {}), ms };
        if (!e) evals.set(id, { id, file, name, passed: !failure, verdict: failure ? 'fail' : 'pass', ...(reason ? { reason } : {}), ms, attempts: [attempt] });
        else e.attempts?.push(attempt);
        continue;
      }
      const s = sims.get(id) ?? { id, file, name, ...(suite.attrs.name !== 'simulations' ? { suite: suite.attrs.name ?? '' } : {}), iterations: [], passed: 0, passRate: 0, verdict: 'fail' as const };
      const out = kids(tc, 'system-out')[0]?.text;
      const it: IterationReport = {
        iteration: s.iterations.length + 1,
        status: failure ? 'failed' : 'passed',
        passed: !failure,
        ...(reason ? { reason } : {}),
        evaluations: [],
        ms,
        ...(out ? { detail: out } : {}),
      };
      s.iterations.push(it);
      sims.set(id, s);
    }
  }
  // One run of an eval is no "attempt": only a merge of several makes them, and they decide its verdict.
  for (const e of evals.values()) {
    const attempts = e.attempts ?? [];
    if (attempts.length === 1) delete e.attempts;
    if (attempts.length < 2) continue;
    const passed = attempts.filter((a) => a.passed).length;
    e.verdict = passed === attempts.length ? 'pass' : passed === 0 ? 'fail' : 'flaky';
    e.passed = e.verdict === 'pass';
    e.ms = attempts.reduce((t, a) => t + a.ms, 0);
    const failing = attempts.find((a) => !a.passed)?.reason;
    if (failing) e.reason = e.verdict === 'flaky' ? `Flaky: passed ${passed} of ${attempts.length}. ${failing}` : failing;
  }
  for (const s of sims.values()) {
    s.passed = s.iterations.filter((i) => i.passed).length;
    s.passRate = s.iterations.length ? s.passed / s.iterations.length : 0;
    s.verdict = s.passed === s.iterations.length && s.passed > 0 ? 'pass' : s.passed === 0 ? 'fail' : 'flaky';
  }
  const [type, ...label] = target.split(' ');
  const simulations = [...sims.values()];
  const evalList = [...evals.values()];
  const ok = simulations.every((s) => s.verdict === 'pass') && evalList.every((e) => e.verdict === 'pass');
  return {
    target: { type: type === 'squad' ? 'squad' : 'assistant', id: '', label: label.join(' ') },
    simulations,
    evals: evalList,
    ok,
    ms: Math.round(Number(top.attrs.time ?? 0) * 1000),
    ...(shard ? { shard: { ...shard, picked: simulations.length + evalList.length } } : {}),
  };
}
