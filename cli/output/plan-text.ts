// How a gitops plan reads for people: one line per resource to change, the fields of each update,
// and the summary line `Plan: N to create, N to update, N to delete.` last.
import type { Change, Plan } from '#core/gitops/index';

const MAX = 70;

function paint(on: boolean, code: number, text: string): string {
  return on ? `\x1b[${code}m${text}\x1b[39m` : text;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text;
}

function changeLines(c: Change, color: boolean): string[] {
  if (c.kind === 'add') return [paint(color, 32, `    + ${c.path}: ${show(c.to)}`)];
  if (c.kind === 'remove') return [paint(color, 31, `    - ${c.path} (was ${show(c.from)})`)];
  if (typeof c.from === 'string' && typeof c.to === 'string' && (c.from.includes('\n') || c.to.includes('\n'))) {
    // A prompt: the lines that went and came, not two truncated blobs.
    const before = c.from.split('\n');
    const after = c.to.split('\n');
    const gone = before.filter((l) => !after.includes(l));
    const came = after.filter((l) => !before.includes(l));
    const lines = [paint(color, 33, `    ~ ${c.path}: text changed (${gone.length} line${gone.length === 1 ? '' : 's'} out, ${came.length} in)`)];
    for (const l of gone.slice(0, 8)) lines.push(paint(color, 31, `        - ${l.slice(0, MAX * 2)}`));
    for (const l of came.slice(0, 8)) lines.push(paint(color, 32, `        + ${l.slice(0, MAX * 2)}`));
    return lines;
  }
  return [paint(color, 33, `    ~ ${c.path}: ${show(c.from)} → ${show(c.to)}`)];
}

/** The summary line, exactly `Plan: N to create, N to update, N to delete.` */
export function planSummary(p: Pick<Plan, 'counts'>): string {
  return `Plan: ${p.counts.create} to create, ${p.counts.update} to update, ${p.counts.delete} to delete.`;
}

/** The plan as text; the summary is the last line. */
export function planText(p: Plan, target: string, color: boolean): string {
  const lines: string[] = [`Plan for ${target} (state: ${p.statePath})`, ''];
  for (const item of p.items) {
    const name = `${item.kind}/${item.id}`;
    if (item.action === 'create') lines.push(paint(color, 32, `  + create  ${name}${item.file ? `  (${item.file})` : ''}${item.note ? `  ${item.note}` : ''}`));
    else if (item.action === 'update') {
      lines.push(paint(color, 33, `  ~ update  ${name}  ${item.uuid}${item.note ? `  (${item.note})` : ''}`));
      for (const c of item.changes ?? []) lines.push(...changeLines(c, color));
    } else if (item.action === 'delete') lines.push(paint(color, 31, `  - delete  ${name}  ${item.uuid}${item.note ? `  ${item.note}` : ''}`));
  }
  if (p.counts.unchanged) lines.push(`  ${p.counts.unchanged} unchanged`);
  if (p.unmanaged.length) {
    lines.push('', 'In the state but in no file (kept; --prune deletes them):');
    for (const u of p.unmanaged) lines.push(`  ${u.kind}/${u.id}  ${u.uuid}`);
  }
  if (lines.length === 2) lines.push('  nothing in the directory');
  lines.push('', planSummary(p));
  return `${lines.join('\n')}\n`;
}
