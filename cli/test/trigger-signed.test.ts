// `voice trigger --credential ID` signs like the platform: the credential's bearer or HMAC plan,
// read through the API; the developer's server verifies with voice-agent-core/verify.
import { describe, expect, it } from 'vitest';
import { verifyServerMessage } from 'voice-agent-core/verify';
import type { AuthenticationPlan } from 'voice-agent-core/verify';
import { devServer } from './dev-server.js';
import { KEY, fileHarness } from './harness.js';

const h = fileHarness();

async function credential(plan: AuthenticationPlan): Promise<string> {
  const res = await fetch(`${h.current.emu.url}/credential`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ provider: 'webhook', authenticationPlan: plan }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe('voice trigger --credential', () => {
  it.each<AuthenticationPlan>([
    { type: 'bearer', token: 'tok-abc' },
    { type: 'hmac', secretKey: 'hmac-secret', algorithm: 'sha512', signatureEncoding: 'base64', timestampHeader: 'x-vapi-timestamp' },
  ])('signs with a $type plan; the verifier accepts it and refuses a tampered body', async (plan) => {
    const server = await devServer();
    try {
      const id = await credential(plan);
      const run = await h.current.voice(['trigger', 'status-update', '--forward-to', `${server.url}/hook`, '--credential', id]);
      expect(run.exitCode, run.stderr).toBe(0);
      const got = server.got[0];
      expect(got).toBeDefined();
      if (!got) return;
      expect(await verifyServerMessage({ body: got.raw, headers: got.headers as Record<string, string>, plan })).toEqual({ valid: true });
      const tampered = await verifyServerMessage({ body: got.raw.replace('status-update', 'status-updatE'), headers: got.headers as Record<string, string>, plan });
      expect(tampered.valid).toBe(plan.type === 'bearer');
      expect(run.stdout + run.stderr).not.toContain(plan.type === 'bearer' ? plan.token : plan.secretKey);
    } finally {
      await server.close();
    }
  });

  it('refuses a credential that is not a webhook one with a signing plan', async () => {
    const res = await fetch(`${h.current.emu.url}/credential`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'openai', apiKey: 'sk-x' }),
    });
    const { id } = (await res.json()) as { id: string };
    const run = await h.current.voice(['trigger', 'status-update', '--forward-to', 'http://127.0.0.1:9/hook', '--credential', id]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('is not a webhook credential');
  });
});
