// How a catalogue entry reads on the command line: its words, placeholders and help example.
import type { Entry } from '#core/catalogue/index';
import { pathParamNames } from '#core/catalogue/index';

/** The argv after `voice` that calls an entry, with `<name>` placeholders for values. */
export function commandWords(entry: Entry): string[] {
  const words = [...entry.resource, entry.action, ...pathParamNames(entry.op.path).map((p) => `<${p}>`)];
  if (entry.op.body === 'multipart') words.push('<file>');
  return words;
}

const SAMPLE_FILE: Record<string, string> = { file: './faq.pdf', 'eleven-labs': './sample.mp3' };

/** Example invocations of an entry for its help text. */
export function examplesFor(entry: Entry): string[] {
  const { op, action } = entry;
  const base = ['voice', ...entry.resource, action, ...pathParamNames(op.path).map((p) => `<${p}>`)].join(' ');
  const noun = entry.resource[entry.resource.length - 1] ?? 'body';
  if (op.response === 'binary') {
    const file = `call.${op.path.endsWith('pcap') ? 'pcap' : op.path.endsWith('call-logs') ? 'jsonl' : op.path.endsWith('video-recording') ? 'mp4' : 'wav'}`;
    return [`${base} --out ${file}`, `${base} > ${file}`];
  }
  if (op.body === 'multipart') return [`${base} ${SAMPLE_FILE[entry.resource[0] ?? ''] ?? './file.bin'}`];
  if (op.body === 'json') {
    if (op.method === 'PATCH') return [`${base} --set name="Front desk"`, `${base} -f ${noun}.json`];
    return [`${base} -f ${noun}.json`, `cat ${noun}.json | ${base} -f -`];
  }
  if (op.method === 'DELETE') return [`${base}${op.query.length ? ` --${op.query[0] === 'callId' ? 'call-id <callId>' : 'query key=value'}` : ''} --yes`];
  if (op.list) {
    const ex = [`${base}${op.query.includes('limit') ? ' --limit 10' : ''}`, `${base} --all --json`];
    if (op.query.includes('createdAtGt')) ex.push(`${base} --created-after 2025-01-01`);
    return ex;
  }
  if (op.query.length) return [base, `${base} --json`, `${base} --query ${op.query[0]}=value`];
  return [base, `${base} --json`];
}
