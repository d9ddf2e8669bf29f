import { describe, expect, it } from 'vitest';
import { VisitorError } from './errors.js';
import { checkSlug, pageUrl, parseVisitorList, slugProblem } from './model.js';

describe('slugs', () => {
  it('accepts lowercase letters, digits and hyphens up to 64 characters', () => {
    for (const slug of ['acme', 'default', 'acme-corp-2', '0', 'a'.repeat(64), '-']) expect(slugProblem(slug)).toBeUndefined();
  });

  it('refuses anything else with a reason', () => {
    expect(slugProblem('')).toMatch(/empty/);
    expect(slugProblem('a'.repeat(65))).toMatch(/at most 64 characters \(this one has 65\)/);
    for (const slug of ['Acme', 'acme corp', 'acme_corp', 'acmé', 'acme/x', '../etc']) expect(slugProblem(slug)).toMatch(/lowercase letters, digits and hyphens/);
    expect(() => checkSlug('Acme')).toThrow(/Invalid slug "Acme"/);
  });
});

describe('visitor files and -f input', () => {
  const acme = { slug: 'acme', name: 'Acme', system: 'Sell.', first_message: 'Hi!' };

  it('takes one object or an array, and drops hosted timestamps', () => {
    expect(parseVisitorList(acme, false, 'x.json')).toEqual([acme]);
    expect(parseVisitorList([{ ...acme, created_at: 'now', updated_at: 'now' }], false, 'x.json')).toEqual([acme]);
  });

  it('names the item and the problem', () => {
    const bad = (v: unknown, partial = false) => {
      try {
        if (partial) parseVisitorList(v, true, 'in.json');
        else parseVisitorList(v, false, 'in.json');
      } catch (err) {
        expect(err).toBeInstanceOf(VisitorError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(bad([acme, { ...acme, name: 5 }])).toBe('in.json item 2: "name" must be a string.');
    expect(bad({ ...acme, first_mesage: 'typo' })).toBe('in.json: unknown field "first_mesage".');
    expect(bad({ ...acme, slug: 'Bad Slug' })).toMatch(/in.json: invalid slug "Bad Slug"/);
    expect(bad([acme, acme])).toMatch(/"acme" appears twice/);
    expect(bad([])).toMatch(/empty/);
    expect(bad({ slug: 'acme', name: 'Acme' })).toBe('in.json: "system" must be a string.');
    expect(bad({ slug: 'acme' }, true)).toMatch(/nothing to change for "acme"/);
    expect(bad({ slug: 'acme', name: '' }, true)).toMatch(/"name" cannot be empty/);
    expect(bad('acme')).toMatch(/expected a visitor object/);
  });

  it('takes partial visitors as patches', () => {
    expect(parseVisitorList([{ slug: 'acme', name: 'New' }], true, 'p.json')).toEqual([{ slug: 'acme', name: 'New' }]);
  });
});

it('builds page URLs under the demo base', () => {
  expect(pageUrl('http://127.0.0.1:5173', 'acme')).toBe('http://127.0.0.1:5173/acme');
  expect(pageUrl('https://demo.example/', 'acme')).toBe('https://demo.example/acme');
});
