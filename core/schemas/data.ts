// The derived schema data (components and operations), imported once on first use so modules that
// only might need it cost nothing at start.
import type { OperationSchema } from './validate.js';

/** The derived components by name and the operations by `METHOD path-template`. */
export interface SchemaData {
  components: Readonly<Record<string, Record<string, unknown>>>;
  operations: Readonly<Record<string, OperationSchema>>;
}

let loading: Promise<SchemaData> | undefined;

/** Loads the derived data once; later calls return the same objects. */
export function loadSchemaData(): Promise<SchemaData> {
  loading ??= Promise.all([import('./components.json', { with: { type: 'json' } }), import('./operations.json', { with: { type: 'json' } })]).then(([c, o]) => ({
    components: c.default as unknown as SchemaData['components'],
    operations: o.default as unknown as SchemaData['operations'],
  }));
  return loading;
}
