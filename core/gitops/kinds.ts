// The resource types of the gitops layout, one row each, in dependency order (a row may only
// depend on rows above it, except through references that apply defers; see apply.ts). Adding
// a type is one row: its folder, its catalogue resource and the fields that refer to other files.
import { catalogue } from '../catalogue/catalogue.js';
import type { Group, Op } from '../catalogue/define.js';
import { isOp } from '../catalogue/define.js';
import { PHONE_NUMBER_PROVIDERS, TOOL_TYPES } from '../catalogue/models.js';
import { VoiceError } from '../errors.js';

/** A field that holds the id of another file: `path` walks objects by key and arrays with `[]`. */
export interface RefRule {
  /** e.g. `model.toolIds[]` (every element) or `members[].assistantId`. */
  readonly path: string;
  /** The kind the value names. */
  readonly to: string;
}

/** One resource type of the layout. */
export interface Kind {
  /** The type's name: its state section and the TYPE argument of the commands. */
  readonly name: string;
  /** Folder under the resources directory. */
  readonly folder: string;
  /** Keys of the catalogue group with list, get, create, update and delete. */
  readonly resource: readonly string[];
  /** One resource in words, for messages. */
  readonly label: string;
  /** Files may be Markdown: YAML front matter, the body being the system prompt. */
  readonly markdown?: boolean;
  readonly refs: readonly RefRule[];
  /** A field whose value must be one of a known list (the type of a tool, ...). */
  readonly discriminant?: { readonly field: string; readonly values: readonly string[] };
  /** Fields the platform sets that never belong in a file, beyond id, orgId and timestamps. */
  readonly serverFields?: readonly string[];
  /** Fields the platform assigns only for some providers (a `vapi` number's `number`), by `provider`. */
  readonly serverFieldsByProvider?: Readonly<Record<string, readonly string[]>>;
  /** Fields accepted on create but refused on update. */
  readonly createOnly?: readonly string[];
  /** Field names older files use, read as the API's (`assistant_ids` is `assistantIds`). */
  readonly aliases?: Readonly<Record<string, string>>;
  /** Where pull finds a name for a new file id (dotted paths, first found wins); default `name`. */
  readonly nameFields?: readonly string[];
  /** Files may hold `voice test`'s own block (`x-voice`), read into `extension` and never sent to the platform. */
  readonly testExtension?: boolean;
}

/** Every type, in the order creates run (deletes run in reverse). */
export const KINDS: readonly Kind[] = [
  { name: 'knowledgeBases', folder: 'knowledgeBases', resource: ['knowledgeBase'], label: 'knowledge base', refs: [] },
  {
    name: 'tools',
    folder: 'tools',
    resource: ['tool'],
    label: 'tool',
    createOnly: ['type'],
    nameFields: ['name', 'function.name', 'type'],
    discriminant: { field: 'type', values: TOOL_TYPES },
    refs: [
      { path: 'destinations[].assistantId', to: 'assistants' },
      { path: 'knowledgeBases[].knowledgeBaseId', to: 'knowledgeBases' },
    ],
  },
  {
    name: 'structuredOutputs',
    folder: 'structuredOutputs',
    resource: ['structuredOutput'],
    label: 'structured output',
    createOnly: ['type'],
    aliases: { assistant_ids: 'assistantIds', workflow_ids: 'workflowIds' },
    refs: [
      { path: 'assistantIds[]', to: 'assistants' },
      { path: 'workflowIds[]', to: 'workflows' },
    ],
  },
  {
    name: 'assistants',
    folder: 'assistants',
    resource: ['assistant'],
    label: 'assistant',
    markdown: true,
    serverFields: ['isServerUrlSecretSet'],
    refs: [
      { path: 'model.toolIds[]', to: 'tools' },
      { path: 'model.knowledgeBaseId', to: 'knowledgeBases' },
      { path: 'artifactPlan.structuredOutputIds[]', to: 'structuredOutputs' },
      { path: 'hooks[].do[].toolId', to: 'tools' },
    ],
  },
  {
    name: 'squads',
    folder: 'squads',
    resource: ['squad'],
    label: 'squad',
    refs: [
      { path: 'members[].assistantId', to: 'assistants' },
      { path: 'members[].assistantDestinations[].assistantId', to: 'assistants' },
    ],
  },
  {
    name: 'workflows',
    folder: 'workflows',
    resource: ['workflow'],
    label: 'workflow',
    refs: [
      { path: 'nodes[].toolId', to: 'tools' },
      { path: 'nodes[].assistantId', to: 'assistants' },
    ],
  },
  {
    name: 'phoneNumbers',
    folder: 'phoneNumbers',
    resource: ['phoneNumber'],
    label: 'phone number',
    serverFields: ['status'],
    serverFieldsByProvider: { vapi: ['number'] },
    nameFields: ['name', 'number'],
    discriminant: { field: 'provider', values: PHONE_NUMBER_PROVIDERS },
    refs: [
      { path: 'assistantId', to: 'assistants' },
      { path: 'squadId', to: 'squads' },
      { path: 'workflowId', to: 'workflows' },
    ],
  },
  { name: 'personalities', folder: 'simulations/personalities', resource: ['eval', 'simulation', 'personality'], label: 'personality', refs: [] },
  {
    name: 'scenarios',
    folder: 'simulations/scenarios',
    resource: ['eval', 'simulation', 'scenario'],
    label: 'scenario',
    refs: [{ path: 'evaluations[].structuredOutputId', to: 'structuredOutputs' }],
  },
  {
    name: 'simulations',
    folder: 'simulations/tests',
    resource: ['eval', 'simulation'],
    label: 'simulation',
    testExtension: true,
    refs: [
      { path: 'personalityId', to: 'personalities' },
      { path: 'scenarioId', to: 'scenarios' },
    ],
  },
  { name: 'simulationSuites', folder: 'simulations/suites', resource: ['eval', 'simulation', 'suite'], label: 'simulation suite', refs: [{ path: 'simulationIds[]', to: 'simulations' }] },
  { name: 'evals', folder: 'evals', resource: ['eval'], label: 'eval', createOnly: ['type'], testExtension: true, refs: [] },
];

/** The catalogue group of a kind, or undefined when the catalogue has no such resource. */
function groupOf(kind: Kind): Group | undefined {
  let node: Op | Group | undefined = catalogue as unknown as Group;
  for (const key of kind.resource) {
    if (!node || isOp(node)) return undefined;
    node = (node as Group)[key];
  }
  return node && !isOp(node) ? node : undefined;
}

/** The kinds the catalogue can serve (list, get, create, update and delete all present). */
export function availableKinds(): Kind[] {
  return KINDS.filter((k) => {
    const g = groupOf(k);
    return g !== undefined && ['list', 'get', 'create', 'update', 'delete'].every((a) => g[a] && isOp(g[a] as Op | Group));
  });
}

/** The catalogue operation of a kind's action. */
export function opOf(kind: Kind, action: 'list' | 'get' | 'create' | 'update' | 'delete'): Op {
  const op = groupOf(kind)?.[action];
  if (!op || !isOp(op)) throw new VoiceError(`The catalogue has no ${action} for ${kind.name}`);
  return op;
}

/** The kind with this name. */
export function kindNamed(name: string): Kind | undefined {
  return availableKinds().find((k) => k.name === name);
}
