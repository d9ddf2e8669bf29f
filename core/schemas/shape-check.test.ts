// The quick shape check never refuses what the full validator accepts (every sample body of
// fixtures/bodies), and finds the mistakes users make: unknown fields, wrong types, enum values,
// missing required fields, inside unions narrowed by their tag.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogue, flatten, kebab } from '../catalogue/index.js';
import { requestSchemaOf } from './fields.js';
import { shapeProblems } from './shape-check.js';
import { loadSchemas } from './validate.js';

const dir = new URL('../../fixtures/bodies/', import.meta.url);

describe('shapeProblems', () => {
  it('accepts every sample body the full validator accepts', async () => {
    const schemas = await loadSchemas();
    const entries = flatten(catalogue);
    let checked = 0;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const name = file.replace(/\.json$/, '');
      const entry = entries.find((e) => [...e.resource.map(kebab), e.action].join('-') === name) ?? entries.find((e) => e.action === 'create' && e.resource.map(kebab).join('-') === name);
      if (!entry || entry.op.body !== 'json') continue;
      const found = await requestSchemaOf(entry.op.method, entry.op.path);
      if (!found) continue;
      const body = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as unknown;
      if (schemas.request(entry.op.method, entry.op.path, body).length) continue;
      expect(shapeProblems(found.schema, found.comps, body), file).toEqual([]);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('finds unknown fields, wrong types, enum values and missing required fields', async () => {
    const assistant = await requestSchemaOf('POST', '/assistant');
    const squad = await requestSchemaOf('POST', '/squad');
    if (!assistant || !squad) throw new Error('no published schema');
    const problems = shapeProblems(assistant.schema, assistant.comps, {
      name: 'x',
      colour: 'red',
      firstMessageMode: 'nope',
      maxDurationSeconds: 'long',
      model: { provider: 'openai', model: 'gpt-4o', temprature: 1 },
    });
    expect(problems.map((p) => p.message).sort()).toEqual([
      'firstMessageMode must be one of the following values: assistant-speaks-first, assistant-speaks-first-with-model-generated-message, assistant-waits-for-user',
      'maxDurationSeconds must be a number',
      'model.property temprature should not exist',
      'property colour should not exist',
    ]);
    expect(shapeProblems(squad.schema, squad.comps, { name: 'S' })).toEqual([{ path: 'members', message: 'members should not be empty', rule: 'required' }]);
  });
});
