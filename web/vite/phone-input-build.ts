// Budget: phone form chunk <= 45 KiB gzip. Measured gain: 47.7 -> 43.7 KiB.
// Re-measured 2026-11-26, two shared cores at load average 13 to 25 (cli/launch/README.md):
// 43.8 KiB with it, 47.9 KiB without. Kept.
// The phone form's libraries, built lean for `vite build` (the form's chunk, bench demo-page):
// - libphonenumber-js ships two builds of the same source: es6/ (ES5 classes and Babel helpers in
//   every file, what its package exports) and es6-modern/ (native classes, spread, for..of). The
//   build takes each module from es6-modern/ when it is there: same code, 2.6 KiB gzip less.
// - `X.propTypes = {...}` assignments are removed from react-phone-number-input and input-format:
//   React 19 never reads propTypes (prop-types' production build is a no-op shim), so they are
//   dead weight; the library's own PropTypes.js (shapes for them) is then unused and dropped.
// - The metadata's `country_calling_codes` (which countries share each calling code, the main one
//   first) is derived from its `countries` when the page loads instead of shipped: the build checks
//   that the derivation gives the very same object, and ships the file as published otherwise.
// The dev server (`voice demo`) uses the libraries as published: the page behaves the same.
import { existsSync, readFileSync } from 'node:fs';
import { parseAst, type Plugin } from 'vite';

const ES6 = '/libphonenumber-js/es6/';
const PROP_TYPES_USERS = /[\\/]node_modules[\\/](?:react-phone-number-input|input-format)[\\/]modules[\\/].*\.js$/;
/** The library's propTypes shapes: without side effects, the module drops out once unused. */
const PROP_TYPES_ONLY = /\/node_modules\/react-phone-number-input\/modules\/PropTypes\.js$/;

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
}

/** `anything.propTypes = ...;` as a statement. */
function isPropTypesStatement(node: Node): boolean {
  if (node.type !== 'ExpressionStatement' || !isNode(node.expression)) return false;
  const assignment = node.expression;
  if (assignment.type !== 'AssignmentExpression' || !isNode(assignment.left)) return false;
  const target = assignment.left;
  return target.type === 'MemberExpression' && !target.computed && isNode(target.property) && target.property.name === 'propTypes';
}

/** The source ranges of every `X.propTypes = ...;` statement, at any depth. */
function propTypesRanges(node: Node, found: Array<[number, number]> = []): Array<[number, number]> {
  if (isPropTypesStatement(node)) {
    found.push([node.start, node.end]);
    return found;
  }
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) if (isNode(child)) propTypesRanges(child, found);
  }
  return found;
}

/** The code without its `X.propTypes = ...;` statements (unchanged when there are none). */
export function removePropTypes(code: string): string {
  if (!code.includes('.propTypes')) return code;
  const ranges = propTypesRanges(parseAst(code) as unknown as Node).sort((a, b) => b[0] - a[0]);
  let out = code;
  for (const [start, end] of ranges) out = out.slice(0, start) + out.slice(end);
  return out;
}

/** The parts of libphonenumber-js's metadata this file reads. */
export interface PhoneMetadata {
  version: number;
  country_calling_codes: Record<string, string[]>;
  countries: Record<string, [string, ...unknown[]]>;
  nonGeographic?: Record<string, unknown>;
}

/** deriveCallingCodes() as the page runs it (the tests import the emitted module and compare). */
const DERIVE_IN_PAGE = `function deriveCallingCodes(countries, main) {
  const codes = {};
  for (const [country, data] of Object.entries(countries)) (codes[data[0]] ??= []).push(country);
  for (const [code, first] of Object.entries(main)) codes[code] = [first, ...(codes[code] ?? []).filter((c) => c !== first)];
  return codes;
}`;

/** Which countries share each calling code, from `countries` (in their order), `main[code]` first. */
export function deriveCallingCodes(countries: PhoneMetadata['countries'], main: Record<string, string>): Record<string, string[]> {
  const codes: Record<string, string[]> = {};
  for (const [country, data] of Object.entries(countries)) (codes[data[0]] ??= []).push(country);
  for (const [code, first] of Object.entries(main)) codes[code] = [first, ...(codes[code] ?? []).filter((c) => c !== first)];
  return codes;
}

/**
 * The metadata module without `country_calling_codes` (derived in the page), or undefined when
 * the derivation would not give back exactly the published object.
 */
export function compactMetadataModule(metadata: PhoneMetadata): string | undefined {
  const { version, country_calling_codes: published, countries, nonGeographic, ...other } = metadata;
  if (Object.keys(other).length > 0) return undefined;
  const plain = deriveCallingCodes(countries, {});
  const main = Object.fromEntries(
    Object.entries(published)
      .filter(([code, list]) => plain[code]?.[0] !== list[0])
      .map(([code, list]) => [code, list[0] as string]),
  );
  const derived = deriveCallingCodes(countries, main);
  if (JSON.stringify(derived) !== JSON.stringify(published) || JSON.stringify(Object.keys(metadata)) !== JSON.stringify(['version', 'country_calling_codes', 'countries', 'nonGeographic']))
    return undefined;
  return [
    `const countries = ${JSON.stringify(countries)};`,
    `const nonGeographic = ${JSON.stringify(nonGeographic)};`,
    DERIVE_IN_PAGE,
    `export default { version: ${JSON.stringify(version)}, country_calling_codes: deriveCallingCodes(countries, ${JSON.stringify(main)}), countries, nonGeographic };`,
  ].join('\n');
}

const METADATA_MODULE = /[\\/]libphonenumber-js[\\/]metadata\.min\.json\.js$/;

/** The build-only plugin (see the file's head). */
export function phoneInputBuild(): Plugin {
  return {
    name: 'voice-phone-input-build',
    apply: 'build',
    enforce: 'pre',
    // Hook filters: only the imports that can lead to es6/ or PropTypes.js reach the handlers.
    resolveId: {
      filter: { id: /(?:^|\/)es6\/|\/PropTypes\.js$/ },
      async handler(source, importer, options) {
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
        if (!resolved || resolved.external) return resolved;
        const id = resolved.id.replaceAll('\\', '/');
        if (id.includes(ES6)) {
          const modern = resolved.id.replace(/([\\/]libphonenumber-js[\\/])es6([\\/])/, '$1es6-modern$2');
          if (existsSync(modern.split('?')[0] as string)) return { ...resolved, id: modern };
        }
        if (PROP_TYPES_ONLY.test(id)) return { ...resolved, moduleSideEffects: false };
        return resolved;
      },
    },
    load: {
      filter: { id: METADATA_MODULE },
      handler(id) {
        const metadata = JSON.parse(readFileSync(id.replace(/\.js$/, ''), 'utf8')) as PhoneMetadata;
        return compactMetadataModule(metadata);
      },
    },
    transform: {
      filter: { id: PROP_TYPES_USERS },
      handler(code) {
        const out = removePropTypes(code);
        return out === code ? undefined : { code: out, map: null };
      },
    },
  };
}
