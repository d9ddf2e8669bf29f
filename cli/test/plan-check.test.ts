// `voice plan` and `voice apply` check every file against the platform's request schemas and the
// references before planning: problems in file order with file:line and the closest names, exit 2,
// and nothing created (no half-applied change).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileHarness, json } from './harness.js';

const hf = fileHarness();

function write(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

async function count(resource: string): Promise<number> {
  return json<unknown[]>(await hf.current.voice([resource, 'list', '--json'])).length;
}

/** The problem lines of a refused plan (`  file:line:col: message`). */
const problemLines = (stderr: string): string[] =>
  stderr
    .split('\n')
    .filter((l) => /^ {2}\S+:\d+:\d+: /.test(l))
    .map((l) => l.trim());

describe('plan and apply refuse what the platform would refuse', () => {
  it('refuses unknown fields and values with file:line and the closest name, and apply creates nothing', async () => {
    const dir = join(hf.current.home, 'typos');
    write(dir, {
      'assistants/a-first.yml': 'name: First\nfirstMessage: Hello\n',
      'assistants/b-second.yml': 'name: Second\ncolour: red\nmodel:\n  provider: openai\n  model: gpt-4o\n  temprature: 0.5\n',
      'tools/lookup.yml': 'type: function\nfunction:\n  name: lookup\nasync: maybe\n',
    });
    const plan = await hf.current.voice(['plan', '--dir', 'typos']);
    expect(plan.exitCode, plan.stderr).toBe(2);
    expect(problemLines(plan.stderr)).toEqual([
      'assistants/b-second.yml:2:9: property colour should not exist',
      expect.stringMatching(/^assistants\/b-second\.yml:6:15: .*temprature should not exist; did you mean model\.temperature\?$/),
      'tools/lookup.yml:4:8: async must be a boolean value',
    ]);
    expect(plan.stderr).not.toContain('+ create');
    const apply = await hf.current.voice(['apply', '--dir', 'typos', '--yes']);
    expect(apply.exitCode).toBe(2);
    expect(problemLines(apply.stderr)).toEqual(problemLines(plan.stderr));
    expect(await count('assistant')).toBe(0);
    expect(await count('tool')).toBe(0);
  });

  it('lists broken references in file order, each with the closest file id', async () => {
    const dir = join(hf.current.home, 'refs');
    write(dir, {
      'tools/lookup-order.yml': 'type: function\nfunction:\n  name: lookup_order\n',
      'structuredOutputs/order-status.yml': 'name: Order status\ntype: ai\nschema:\n  type: string\n',
      'assistants/desk.yml': 'name: Desk\nartifactPlan:\n  structuredOutputIds:\n    - order-stats\nmodel:\n  provider: openai\n  model: gpt-4o\n  toolIds:\n    - lookup-ordr\n',
      'squads/team.yml': 'name: Team\nmembers:\n  - assistantId: dsk\n',
      'tools/typo.yml': 'type: functoin\n',
    });
    const plan = await hf.current.voice(['plan', '--dir', 'refs']);
    expect(plan.exitCode).toBe(2);
    expect(problemLines(plan.stderr)).toEqual([
      'assistants/desk.yml:4:7: artifactPlan.structuredOutputIds[0]: unknown reference "order-stats": no structured output file structuredOutputs/order-stats.yml; did you mean order-status?',
      'assistants/desk.yml:9:7: model.toolIds[0]: unknown reference "lookup-ordr": no tool file tools/lookup-ordr.yml; did you mean lookup-order?',
      'squads/team.yml:3:18: members[0].assistantId: unknown reference "dsk": no assistant file assistants/dsk.yml; did you mean desk?',
      'tools/typo.yml:1:7: type "functoin" is not a known tool type; did you mean function?',
    ]);
  });
});
