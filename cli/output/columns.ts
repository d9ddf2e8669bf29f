// Which fields a list shows besides id, name and created: the ones that matter per resource.
// Keyed by the resource words of the command (`call`, `test-suite run`); unknown resources get
// the base columns only.

const EXTRA: Readonly<Record<string, readonly string[]>> = {
  call: ['type', 'status', 'endedReason', 'cost'],
  chat: ['assistantId', 'cost'],
  campaign: ['status', 'phoneNumberId'],
  session: ['status', 'assistantId'],
  assistant: ['model.provider', 'voice.provider'],
  'phone-number': ['number', 'provider', 'assistantId'],
  tool: ['type', 'function.name'],
  file: ['purpose', 'status', 'bytes'],
  'knowledge-base': ['provider'],
  squad: ['members'],
  'test-suite': ['phoneNumberId'],
  'test-suite test': ['type'],
  'test-suite run': ['status'],
  log: ['type', 'callId'],
  logs: ['type', 'callId'],
  org: ['plan'],
  token: ['tag'],
  credential: ['provider'],
  template: ['provider', 'visibility'],
  'voice-library': ['provider', 'gender', 'accent'],
};

/** The column fields of a list of a resource: id, name, created, then the resource's own. */
export function columnsFor(resource: readonly string[], items: readonly unknown[]): string[] {
  const key = resource.join(' ');
  // v2 lists show the same objects as their v1 counterparts.
  const extra = EXTRA[key] ?? EXTRA[resource.filter((r) => r !== 'v2').join(' ')] ?? [];
  const objects = items.filter((x): x is Record<string, unknown> => x !== null && typeof x === 'object');
  const has = (field: string): boolean => objects.some((o) => fieldValue(o, field) !== undefined);
  const base = ['id', 'name', ...extra, 'createdAt'];
  const chosen = base.filter((f) => f === 'id' || has(f));
  return chosen.length === 1 && !has('id') ? fallbackColumns(objects) : chosen;
}

/** For objects without an id: their first few scalar fields. */
function fallbackColumns(objects: readonly Record<string, unknown>[]): string[] {
  const first = objects[0];
  if (!first) return ['id'];
  const scalar = Object.keys(first).filter((k) => first[k] === null || typeof first[k] !== 'object');
  return (scalar.length ? scalar : Object.keys(first)).slice(0, 6);
}

/** Reads a dotted field (`model.provider`) of an object; `members` counts an array. */
export function fieldValue(obj: Record<string, unknown>, field: string): unknown {
  let node: unknown = obj;
  for (const part of field.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** A column header for a field (`endedReason` to `ENDED REASON`). */
export function headerOf(field: string): string {
  const last = field === 'createdAt' ? 'created' : field.replace(/\./g, ' ');
  return last.replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase();
}
