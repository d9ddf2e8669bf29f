// Test helper: judges built messages against the derived published schemas (core/schemas).
import type { CheckOptions, SchemaError } from '../schemas/validate.js';
import { campaignEventProblems } from './campaign.js';

/**
 * Problems of messages against the derived published schemas (core/schemas). `assistant.started`
 * has no member in the ServerMessage union: its envelope is checked against the client message's
 * fields and its `newAssistant` against the assistant create shape. Nor has `campaign.event`: its
 * event name is checked against the derived campaign `serverMessages` enum, its data against the
 * fields each event carries, and its parties as any message's. Fields the schemas do not declare
 * are allowed unless `options.closed` (as the platform's own messages may carry more).
 */
export async function messageProblems(messages: readonly Record<string, unknown>[], options: CheckOptions = {}): Promise<string[]> {
  const { loadSchemas } = await import('../schemas/validate.js');
  const schemas = await loadSchemas();
  const problems: string[] = [];
  const startedKeys = new Set(['type', 'timestamp', 'call', 'customer', 'assistant', 'newAssistant', 'phoneNumber', 'assistantVersion']);
  for (const m of messages) {
    let errors: SchemaError[];
    if (m.type === 'assistant.started') {
      errors = schemas.request('POST', '/assistant', m.newAssistant);
      for (const key of Object.keys(m)) if (!startedKeys.has(key)) errors.push({ path: key, message: `property ${key} should not exist`, rule: 'unknown-field' });
      if (m.call) errors.push(...schemas.serverMessage({ ...m, type: 'hang', newAssistant: undefined }, options).filter((e) => e.path !== 'newAssistant'));
    } else if (m.type === 'campaign.event') {
      const named = schemas.request('POST', '/campaign', { name: 'check', serverMessages: [m.eventType] }).filter((e) => !arrayEnumDefect(e));
      errors = [...named, ...campaignEventProblems(m).map((message) => ({ path: '', message }))];
      const { campaignId: _c, eventType: _e, data: _d, ...rest } = m;
      errors.push(...schemas.serverMessage({ ...rest, type: 'hang' }, options));
    } else {
      errors = schemas.serverMessage(m, options);
    }
    for (const e of errors) if (!arrayEnumDefect(e)) problems.push(`${String(m.type)}: ${e.message}`);
  }
  return problems;
}

// The published `serverMessages`/`clientMessages` schemas put their items' enum on the array itself
// (an array never equals a string), so every assistant with such a list fails there. The derived set
// carries that defect; only that exact error is set aside here, the items are still checked.
function arrayEnumDefect(e: SchemaError): boolean {
  return /(^|\.)(serverMessages|clientMessages)$/.test(e.path) && e.rule === 'one-of';
}
