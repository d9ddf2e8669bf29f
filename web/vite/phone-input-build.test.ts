// The phone form's lean build (phone-input-build.ts): propTypes removal leaves everything else, and
// libphonenumber-js's es6-modern build behaves exactly like the es6 build it replaces, for every
// country's example number typed digit by digit.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import metadata from 'libphonenumber-js/min/metadata';
import examples from 'libphonenumber-js/examples.mobile.json';
import type { AsYouType, parsePhoneNumberWithError } from 'libphonenumber-js/core';
import { compactMetadataModule, removePropTypes, type PhoneMetadata } from './phone-input-build.js';

const require = createRequire(import.meta.url);
const phoneLib = dirname(require.resolve('libphonenumber-js/package.json'));
const fromPhoneInput = createRequire(require.resolve('react-phone-number-input'));
const phoneInputModules = join(dirname(fromPhoneInput.resolve('react-phone-number-input/package.json')), 'modules');

describe('removePropTypes', () => {
  it('removes X.propTypes = {...} statements at any depth and keeps the rest', () => {
    const code = [
      "import PropTypes from 'prop-types';",
      'function make() {',
      '  function Icon() { return null; }',
      "  Icon.propTypes = { title: PropTypes.string, label: '}{' };",
      '  return Icon;',
      '}',
      'export const Input = make();',
      'Input.propTypes = { value: PropTypes.string.isRequired };',
      'Input.defaultProps = { value: "" };',
      "obj['propTypes'] = 1;",
    ].join('\n');
    const out = removePropTypes(code);
    expect(out).not.toContain('.propTypes');
    expect(out).toContain('Input.defaultProps = { value: "" };');
    expect(out).toContain("obj['propTypes'] = 1;");
    expect(out).toContain('return Icon;');
    expect(() => parseAst(out)).not.toThrow();
  });

  it('leaves code without propTypes untouched', () => {
    const code = 'export const a = { propTypes: 1 };\n';
    expect(removePropTypes(code)).toBe(code);
  });

  it("strips every propTypes assignment of react-phone-number-input's modules, leaving valid code", () => {
    const files = readdirSync(phoneInputModules, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    let stripped = 0;
    for (const file of files) {
      const code = readFileSync(join(phoneInputModules, file), 'utf8');
      const out = removePropTypes(code);
      if (out !== code) stripped++;
      expect(out, file).not.toMatch(/\.propTypes\s*=/);
      expect(() => parseAst(out), file).not.toThrow();
    }
    expect(stripped).toBeGreaterThan(5);
  });
});

const load = async (build: 'es6' | 'es6-modern'): Promise<{ AsYouType: typeof AsYouType; parsePhoneNumberWithError: typeof parsePhoneNumberWithError }> => {
  const url = (file: string) => pathToFileURL(join(phoneLib, build, file)).href;
  const [asYouType, parse] = await Promise.all([import(url('AsYouType.js')), import(url('parsePhoneNumberWithError.js'))]);
  return { AsYouType: asYouType.default, parsePhoneNumberWithError: parse.default };
};

describe('libphonenumber-js es6-modern', () => {
  it('has a counterpart for every es6 module', () => {
    const list = (build: string) =>
      readdirSync(join(phoneLib, build), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.js') && !f.includes('.test.'))
        .sort();
    expect(list('es6-modern')).toEqual(list('es6'));
  });

  it('formats and parses every country example exactly like the es6 build, digit by digit', async () => {
    const [es6, modern] = await Promise.all([load('es6'), load('es6-modern')]);
    expect(modern.AsYouType).not.toBe(es6.AsYouType);
    const countries = Object.keys(examples) as Array<keyof typeof examples>;
    expect(countries.length).toBeGreaterThan(200);
    const run = (lib: typeof es6, country: keyof typeof examples): unknown[] => {
      const national = examples[country];
      const callingCode = metadata.countries[country]?.[0];
      const typed = `+${callingCode}${national}`;
      const formatter = new lib.AsYouType(undefined, metadata);
      const steps = [...typed].map((char) => formatter.input(char));
      const parsed = lib.parsePhoneNumberWithError(typed, metadata);
      const fromCountry = new lib.AsYouType(country, metadata).input(national);
      return [steps, formatter.getCountry(), formatter.isValid(), fromCountry, parsed.country, parsed.isValid(), parsed.formatInternational(), parsed.getType()];
    };
    for (const country of countries) expect(run(modern, country), country).toEqual(run(es6, country));
  });
});

describe('compactMetadataModule', () => {
  it("gives back libphonenumber-js's min metadata exactly, with country_calling_codes derived in the page", async () => {
    const published = JSON.parse(readFileSync(join(phoneLib, 'metadata.min.json'), 'utf8')) as PhoneMetadata;
    const code = compactMetadataModule(published);
    expect(code).toBeDefined();
    expect(code).not.toContain('country_calling_codes:{');
    const emitted = (await import(`data:text/javascript;base64,${Buffer.from(code as string).toString('base64')}`)) as { default: PhoneMetadata };
    expect(emitted.default).toEqual(published);
    expect(JSON.stringify(emitted.default)).toBe(JSON.stringify(published));
    expect(emitted.default).toEqual(metadata);
  });

  it('ships the metadata as published when the derivation would not give it back', () => {
    const published = JSON.parse(readFileSync(join(phoneLib, 'metadata.min.json'), 'utf8')) as PhoneMetadata;
    const odd = { ...published, country_calling_codes: { ...published.country_calling_codes, 44: ['GB'] } };
    expect(compactMetadataModule(odd)).toBeUndefined();
    expect(compactMetadataModule({ ...published, extra: 1 } as PhoneMetadata)).toBeUndefined();
  });
});
