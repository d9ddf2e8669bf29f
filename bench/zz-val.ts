import { validateRequest } from 'voice-agent-core/schemas';
const body = { name: 'Bench assistant 1', firstMessage: 'Hello, how can I help?', model: { provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You are helpful.' }] }, voice: { provider: 'vapi', voiceId: 'Elliot' } };
let t = performance.now();
const e = await validateRequest('POST', '/assistant', body);
const first = performance.now() - t;
t = performance.now();
for (let i = 0; i < 20000; i++) await validateRequest('POST', '/assistant', body);
console.log(`opt=${process.env.VT_OPT ?? 0} errors=${e.length} first ${first.toFixed(1)} ms, 20k validations ${(performance.now() - t).toFixed(0)} ms`);
