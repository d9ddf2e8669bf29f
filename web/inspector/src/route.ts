// Hash routes (`#/calls/ID`, `#/deliveries?call=ID`...): the page is static files, so the path stays.
import { useSyncExternalStore } from 'react';

/** The current route: its path segments and query. */
export interface Route {
  parts: string[];
  query: URLSearchParams;
}

function read(): Route {
  const hash = location.hash.replace(/^#\/?/, '');
  const at = hash.indexOf('?');
  const path = at < 0 ? hash : hash.slice(0, at);
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(at < 0 ? '' : hash.slice(at + 1)) };
}

let current = read();
const subscribe = (cb: () => void): (() => void) => {
  const on = (): void => {
    current = read();
    cb();
  };
  addEventListener('hashchange', on);
  return () => removeEventListener('hashchange', on);
};

/** The route, re-rendering on change. */
export function useRoute(): Route {
  return useSyncExternalStore(subscribe, () => current);
}

/** A link target for a route. */
export function href(parts: string[], query?: Record<string, string | undefined>): string {
  const q = new URLSearchParams(Object.entries(query ?? {}).filter((e): e is [string, string] => Boolean(e[1])));
  const qs = q.toString();
  return `#/${parts.map(encodeURIComponent).join('/')}${qs ? `?${qs}` : ''}`;
}
