// The phone form's libraries, built lean for `vite build` (the form's chunk, bench demo-page):
// - libphonenumber-js ships two builds of the same source: es6/ (ES5 classes and Babel helpers in
//   every file, what its package exports) and es6-modern/ (native classes, spread, for..of). The
//   build takes each module from es6-modern/ when it is there: same code, 2.6 KiB gzip less.
// - `X.propTypes = {...}` assignments are removed from react-phone-number-input and input-format:
//   React 19 never reads propTypes (prop-types' production build is a no-op shim), so they are
//   dead weight; the library's own PropTypes.js (shapes for them) is then unused and dropped.
// The dev server (`voice demo`) uses the libraries as published: the page behaves the same.
import { existsSync } from 'node:fs';
import { parseAst, type Plugin } from 'vite';

const ES6 = '/libphonenumber-js/es6/';
const PROP_TYPES_USERS = /\/node_modules\/(?:react-phone-number-input|input-format)\/modules\/.*\.js$/;
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

/** The build-only plugin (see the file's head). */
export function phoneInputBuild(): Plugin {
  return {
    name: 'voice-phone-input-build',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
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
    transform(code, id) {
      if (!PROP_TYPES_USERS.test(id.replaceAll('\\', '/'))) return undefined;
      const out = removePropTypes(code);
      return out === code ? undefined : { code: out, map: null };
    },
  };
}
