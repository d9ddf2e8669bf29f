// Modules of the installed Vite's bundler (rolldown): Vite depends on it, this package does not,
// so it is found from Vite's own folder rather than imported by name.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** Imports `specifier` (`rolldown`, `rolldown/utils`) as Vite resolves it. */
export async function importFromVite<T>(specifier: string): Promise<T> {
  const fromVite = createRequire(createRequire(import.meta.url).resolve('vite'));
  return (await import(pathToFileURL(fromVite.resolve(specifier)).href)) as T;
}
