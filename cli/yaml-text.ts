// YAML body files (`-f suite.yml`), parsed with the `yaml` package, loaded only when one is read.
import { usageError } from './errors.js';
import { lineColumn } from './json-text.js';

/** True when a body file's name says it is YAML (`.yml` or `.yaml`). */
export function isYamlPath(path: string): boolean {
  return /\.ya?ml$/i.test(path);
}

/** Parses YAML text; on failure throws a usage error naming the source, line and column. */
export async function parseYamlText(text: string, label: string): Promise<unknown> {
  const loaded = await import('yaml');
  // Bundled, the CommonJS build of `yaml` arrives as a default export only.
  const { parse, YAMLParseError } = typeof loaded.parse === 'function' ? loaded : (loaded as unknown as { default: typeof loaded }).default;
  try {
    return parse(text, { prettyErrors: false });
  } catch (e) {
    if (e instanceof YAMLParseError) {
      const { line, column } = lineColumn(text, e.pos[0]);
      const where = ` at line ${line}, column ${column}`;
      throw usageError(`Invalid YAML in ${label}${where}: ${e.message.split('\n')[0]}`);
    }
    throw e;
  }
}
