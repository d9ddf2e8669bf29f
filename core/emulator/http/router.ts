// Path matching compiled once from the catalogue's templates: one segment trie per method,
// literal segments tried before `{param}` segments from left to right, with backtracking so
// `/11labs/voice/search` still reaches `/{provider}/voice/search` when no literal path fits.
import { VoiceError } from '../../errors.js';

interface Node<T> {
  literal: Map<string, Node<T>> | undefined;
  param: Node<T> | undefined;
  route: T | undefined;
}

/** A matched route with its path values in template order. */
export interface Match<T> {
  route: T;
  values: string[];
}

function node<T>(): Node<T> {
  return { literal: undefined, param: undefined, route: undefined };
}

/** Segments of a request path: no empty segments, so a trailing slash is ignored. */
export function splitPath(path: string): string[] {
  const out: string[] = [];
  let start = 1;
  for (let i = 1; i <= path.length; i++) {
    if (i === path.length || path.charCodeAt(i) === 47) {
      if (i > start) out.push(path.slice(start, i));
      start = i + 1;
    }
  }
  return out;
}

/** A method-keyed table of path templates, matched without regular expressions. */
export class Router<T> {
  private readonly roots = new Map<string, Node<T>>();

  /** Adds a route; a template that is already taken for the method is an error. */
  add(method: string, template: string, route: T): void {
    let root = this.roots.get(method);
    if (!root) this.roots.set(method, (root = node<T>()));
    let at = root;
    for (const seg of splitPath(template)) {
      if (seg.startsWith('{') && seg.endsWith('}')) {
        at = at.param ??= node<T>();
      } else {
        at.literal ??= new Map();
        let next = at.literal.get(seg);
        if (!next) at.literal.set(seg, (next = node<T>()));
        at = next;
      }
    }
    if (at.route !== undefined) throw new VoiceError(`duplicate route ${method} ${template}`);
    at.route = route;
  }

  /** The best route for a method and already decoded path segments, or undefined. */
  match(method: string, segments: readonly string[]): Match<T> | undefined {
    const root = this.roots.get(method);
    if (!root) return undefined;
    const values: string[] = [];
    const route = walk(root, segments, 0, values);
    return route === undefined ? undefined : { route, values };
  }
}

function walk<T>(at: Node<T>, segs: readonly string[], i: number, values: string[]): T | undefined {
  if (i === segs.length) return at.route;
  const seg = segs[i] as string;
  const lit = at.literal?.get(seg);
  if (lit) {
    const found = walk(lit, segs, i + 1, values);
    if (found !== undefined) return found;
  }
  if (at.param) {
    values.push(seg);
    const found = walk(at.param, segs, i + 1, values);
    if (found !== undefined) return found;
    values.pop();
  }
  return undefined;
}
