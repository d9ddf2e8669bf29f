// The schema derivation on a small made-up OpenAPI document (never the platform's reference):
// facts kept, prose dropped, the document's known slips handled, output deterministic.
import { describe, expect, it } from 'vitest';
import { derive, serialise } from './derive-schemas-lib.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const doc = {
  paths: {
    '/pet': {
      post: {
        requestBody: { content: { 'application/json': { schema: ref('CreatePetDTO') } } },
        responses: { '201': { description: 'Created', content: { 'application/json': { schema: ref('Pet') } } } },
      },
    },
    '/pet/{id}': { delete: { responses: { '200': { description: '' } } } },
  },
  components: {
    schemas: {
      CreatePetDTO: {
        type: 'object',
        description: 'A pet to create.',
        properties: {
          name: { type: 'string', description: 'Its name.', example: 'Rex', pattern: '/^[a-z]+$/i', maxLength: 40 },
          tags: { type: 'array', enum: ['a', 'b'], items: { type: 'string' } },
          owner: { description: 'Who owns it', allOf: [ref('Owner')], nullable: true },
          food: { oneOf: [ref('Kibble'), ref('Meat')] },
          meta: { type: 'object' },
          colour: { type: 'object', enum: ['red', 'blue'] },
        },
        required: ['name', 'food'],
        title: 'CreatePetDTO',
      },
      Pet: { type: 'object', properties: { id: { type: 'string', format: 'uuid' }, born: { type: 'string', format: 'date-time' } }, required: ['id'] },
      Owner: { type: 'object', properties: { name: { type: 'string' } } },
      Kibble: { type: 'object', properties: { kind: { type: 'string', enum: ['kibble'] }, grams: { type: 'number', minimum: 1 } }, required: ['kind'] },
      Meat: { type: 'object', properties: { kind: { type: 'string', enum: ['meat'] } }, required: ['kind'] },
      Unused: { type: 'object', properties: { x: { type: 'string' } } },
    },
  },
};

describe('derive', () => {
  const out = derive(doc);
  const create = out.components.CreatePetDTO as { properties: Record<string, Record<string, unknown>> } & Record<string, unknown>;

  it('keys every operation by METHOD path with its body, answer and status', () => {
    expect(out.operations).toEqual({
      'POST /pet': { request: { $ref: 'CreatePetDTO' }, response: { $ref: 'Pet' }, status: 201 },
      'DELETE /pet/{id}': { status: 200 },
    });
  });

  it('keeps facts, drops prose, and takes only the components something reaches', () => {
    const text = JSON.stringify(out);
    expect(text).not.toMatch(/description|example|title|Its name|Unused/);
    expect(create.required).toEqual(['name', 'food']);
    expect(create.additionalProperties).toBe(false);
    expect(create.properties.meta).toEqual({ type: 'object' });
    expect(out.components.Pet?.properties).toEqual({ id: { type: 'string', format: 'uuid' }, born: { type: 'string', format: 'date-time' } });
  });

  it('handles the document’s slips: regex literals, enums on arrays, enums typed as objects, nullable references', () => {
    expect(create.properties.name).toEqual({ type: 'string', pattern: '^[a-z]+$', maxLength: 40 });
    expect(create.properties.tags).toEqual({ type: 'array', items: { type: 'string', enum: ['a', 'b'] } });
    expect(create.properties.colour).toEqual({ type: 'string', enum: ['red', 'blue'] });
    expect(create.properties.owner).toEqual({ anyOf: [{ $ref: 'Owner' }, { type: 'null' }] });
  });

  it('tags a union whose branches each fix one value of a required property', () => {
    expect(create.properties.food).toEqual({ type: 'object', discriminator: { propertyName: 'kind' }, oneOf: [{ $ref: 'Kibble' }, { $ref: 'Meat' }] });
  });

  it('writes the same text for the same input, whatever the key order', () => {
    const shuffled = { ...doc, components: { schemas: Object.fromEntries(Object.entries(doc.components.schemas).reverse()) } };
    expect(serialise(derive(shuffled).components)).toBe(serialise(out.components));
    expect(serialise({ b: { y: 1, x: 2 }, a: [2, 1] })).toBe('{\n"a":[2,1],\n"b":{"x":2,"y":1}\n}\n');
  });
});
