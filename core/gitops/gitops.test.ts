// The engine's pure parts: the field-level diff, file formats round-tripping, references and the
// state file (including the platform gitops repository's own state format).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diff, updateBody } from './diff.js';
import { parseResource } from './files.js';
import { render } from './format.js';
import { kindNamed } from './kinds.js';
import { checkResources, resolveRefs, toFileIds } from './refs.js';
import { readState, stateText, stateWriter, updateState } from './state.js';

const tmp = mkdtempSync(join(tmpdir(), 'voice-gitops-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const assistants = kindNamed('assistants')!;
const squads = kindNamed('squads')!;

describe('diff', () => {
  it('compares only what the file says, so fields the platform fills in are not changes', () => {
    const want = { name: 'A', model: { provider: 'openai', model: 'gpt-4o' } };
    const have = { name: 'A', model: { provider: 'openai', model: 'gpt-4o', maxTokens: 250 }, voice: { provider: 'vapi' } };
    expect(diff(want, have)).toEqual([]);
    expect(diff({ ...want, name: 'B' }, have)).toEqual([{ path: 'name', kind: 'change', from: 'A', to: 'B' }]);
  });

  it('treats a field the file named before and names no more as removed, and the update nulls it', () => {
    const have = { name: 'A', model: { provider: 'openai', temperature: 0.3 }, firstMessage: 'Hi' };
    const want = { name: 'A', model: { provider: 'openai' } };
    const changes = diff(want, have, ['firstMessage', 'model.provider', 'model.temperature', 'name']);
    expect(changes).toEqual([
      { path: 'firstMessage', kind: 'remove', from: 'Hi' },
      { path: 'model.temperature', kind: 'remove', from: 0.3 },
    ]);
    expect(updateBody(want, changes)).toEqual({ firstMessage: null, model: { provider: 'openai', temperature: null } });
  });

  it('diffs array elements one by one when the lengths match', () => {
    const changes = diff({ members: [{ assistantId: 'a' }, { assistantId: 'c' }] }, { members: [{ assistantId: 'a' }, { assistantId: 'b' }] });
    expect(changes).toEqual([{ path: 'members[1].assistantId', kind: 'change', from: 'b', to: 'c' }]);
    expect(diff({ toolIds: ['a'] }, { toolIds: ['a', 'b'] })).toEqual([{ path: 'toolIds', kind: 'change', from: ['a', 'b'], to: ['a'] }]);
  });
});

describe('files', () => {
  it('round-trips an assistant through Markdown: the body is the first system message', () => {
    const data = {
      name: 'Desk',
      model: {
        provider: 'openai',
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: '# Job\n\nAnswer calls.' },
          { role: 'assistant', content: 'Hi' },
        ],
      },
    };
    const text = render(data, 'md');
    expect(text).toBe('---\nname: Desk\nmodel:\n  provider: openai\n  messages:\n    - role: assistant\n      content: Hi\n  model: gpt-4o\n---\n\n# Job\n\nAnswer calls.\n');
    expect(parseResource(assistants, 'desk', 'assistants/desk.md', text).resource?.data).toEqual(data);
  });

  it('writes keys in a stable order whatever order they came in, and reads .yml and .json alike', () => {
    const a = render({ voice: { voiceId: 'x', provider: 'vapi' }, name: 'A', 'off-switch': 'off' }, 'yml');
    const b = render({ 'off-switch': 'off', name: 'A', voice: { provider: 'vapi', voiceId: 'x' } }, 'yml');
    expect(a).toBe(b);
    expect(a).toBe('name: A\noff-switch: "off"\nvoice:\n  provider: vapi\n  voiceId: x\n');
    const json = render({ name: 'A', members: [{ assistantId: 'x' }] }, 'json');
    expect(parseResource(squads, 's', 'squads/s.json', json).resource?.data).toEqual({ name: 'A', members: [{ assistantId: 'x' }] });
  });

  it("reads the gitops repository's snake_case assistant_ids of structured outputs as assistantIds", () => {
    const so = parseResource(kindNamed('structuredOutputs')!, 'o', 'structuredOutputs/o.yml', 'name: O\nschema:\n  type: string\nassistant_ids:\n  - desk\n').resource!;
    expect(so.data).toEqual({ name: 'O', schema: { type: 'string' }, assistantIds: ['desk'] });
    expect(checkResources([so])[0]).toMatchObject({ line: 5, col: 5 });
  });

  it('ends the front matter only at a line of its own', () => {
    const r = parseResource(assistants, 'a', 'assistants/a.md', '---\nname: A---\nfirstMessage: Hi\n---\nPrompt\n').resource!;
    expect(r.data).toEqual({ name: 'A---', firstMessage: 'Hi', model: { messages: [{ role: 'system', content: 'Prompt' }] } });
    expect(parseResource(assistants, 'b', 'assistants/b.md', '---\n---\nJust a prompt\n').resource?.data).toEqual({ model: { messages: [{ role: 'system', content: 'Just a prompt' }] } });
  });

  it('reports YAML errors and bad front matter with line and column', () => {
    expect(parseResource(squads, 's', 'squads/s.yml', 'name: S\nmembers: [\n').problems[0]).toMatchObject({ file: 'squads/s.yml', line: 3 });
    expect(parseResource(assistants, 'a', 'assistants/a.md', 'name: A\n').problems[0]?.message).toContain('front matter');
    expect(parseResource(squads, 's', 'squads/s.md', '---\nname: S\n---\n').problems[0]?.message).toContain('only assistants');
  });
});

describe('references', () => {
  const squad = parseResource(squads, 'team', 'squads/team.yml', 'name: T\nmembers:\n  - assistantId: desk\n  - assistantId: 0b0c43c4-93c5-4a8e-bb51-2f0e4a5a8f11\n').resource!;
  it('accepts file ids and literal UUIDs, refuses anything else with its line', () => {
    expect(checkResources([squad])).toEqual([{ file: 'squads/team.yml', line: 3, col: 18, message: 'members[0].assistantId: unknown reference "desk": no assistant file assistants/desk.yml' }]);
  });
  it('turns file ids into UUIDs and back', () => {
    const ids = {
      uuidOf: (k: string, id: string) => (k === 'assistants' && id === 'desk' ? 'u-1' : undefined),
      idOf: (k: string, u: string) => (k === 'assistants' && u === 'u-1' ? 'desk' : undefined),
    };
    const { body, pending } = resolveRefs(squads, squad.data, ids);
    expect(pending).toEqual([]);
    expect(body.members).toEqual([{ assistantId: 'u-1' }, { assistantId: '0b0c43c4-93c5-4a8e-bb51-2f0e4a5a8f11' }]);
    expect(toFileIds(squads, body, ids)).toEqual(squad.data);
  });
});

describe('state file', () => {
  it("reads the platform gitops repository's state (bare UUIDs or { uuid }) and writes sorted JSON", () => {
    const path = join(tmp, 'legacy.json');
    writeFileSync(path, JSON.stringify({ tools: { b: 'u-b', a: { uuid: 'u-a' } }, credentials: {} }));
    const state = readState(path);
    expect(state.sections.tools).toEqual({ b: { uuid: 'u-b' }, a: { uuid: 'u-a' } });
    expect(stateText(state)).toBe('{\n  "tools": {\n    "a": {\n      "uuid": "u-a"\n    },\n    "b": {\n      "uuid": "u-b"\n    }\n  }\n}\n');
  });

  it('keeps every entry when many writers change it at once', async () => {
    const path = join(tmp, 'busy.json');
    await Promise.all(Array.from({ length: 12 }, (_, i) => updateState(path, (s) => void ((s.sections.tools ??= {})[`t${i}`] = { uuid: `u${i}` }))));
    expect(Object.keys(readState(path).sections.tools ?? {})).toHaveLength(12);
    expect(() => JSON.parse(readFileSync(path, 'utf8'))).not.toThrow();
  });

  it('groups changes made while a write runs, and each resolves once it is in the file', async () => {
    const path = join(tmp, 'grouped.json');
    const memory = { sections: {} };
    const writer = stateWriter(path, memory);
    const seen: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        writer
          .commit((s) => void ((s.sections.tools ??= {})[`t${i}`] = { uuid: `u${i}` }))
          .then(() => {
            seen.push(Object.keys(readState(path).sections.tools ?? {}).length);
            expect(readState(path).sections.tools?.[`t${i}`]).toEqual({ uuid: `u${i}` });
          }),
      ),
    );
    await writer.flushed();
    expect(Object.keys(readState(path).sections.tools ?? {})).toHaveLength(20);
    expect(Object.keys((memory as { sections: { tools: object } }).sections.tools)).toHaveLength(20);
    expect(new Set(seen).size).toBeLessThan(20);
  });

  it('names a broken state file instead of overwriting it', () => {
    const path = join(tmp, 'broken.json');
    writeFileSync(path, '{ nope');
    expect(() => readState(path)).toThrow(/broken\.json is not valid JSON/);
  });
});
