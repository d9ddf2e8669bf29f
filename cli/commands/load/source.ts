// Which assistant `voice load` plays: a stand-in that subscribes to every message the calls send
// (with one function tool), an assistant file, or an assistant of a resource folder (its tools
// resolved from the folder); `--server` and the server flags then point it at the server under test.
import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { basename, extname } from 'node:path';
import type { Json } from '#core/messages/index';
import { kindNamed, parseResource, readProject } from '#core/gitops/index';
import type { LocalResource } from '#core/gitops/index';
import { usageError } from '../../errors.js';
import { targetUrl } from '../../webhook/url.js';

/** Every message type a load call sends, so the server gets the platform's full sequence. */
export const ALL_MESSAGES = ['status-update', 'assistant.started', 'speech-update', 'transcript', 'conversation-update', 'model-output', 'tool-calls', 'user-interrupted', 'end-of-call-report'];

/** The stand-in assistant's tool: arguments come from its schema. */
const SAMPLE_TOOL: Json = {
  type: 'function',
  function: {
    name: 'bookAppointment',
    description: 'Books an appointment',
    parameters: { type: 'object', properties: { day: { type: 'string', enum: ['monday', 'tuesday'] }, time: { type: 'string', example: '09:30' } }, required: ['day'] },
  },
};

/** The stand-in assistant when no file or folder names one. */
export function standIn(): Json {
  return {
    name: 'voice load',
    firstMessage: 'Hello, thanks for calling. How can I help?',
    serverMessages: [...ALL_MESSAGES],
    model: { provider: 'openai', model: 'gpt-4o-mini', tools: [structuredClone(SAMPLE_TOOL)] },
  };
}

function problemsText(problems: { file: string; line?: number | undefined; message: string }[]): string {
  return problems.map((p) => `${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`).join('\n');
}

/** Reads one assistant file (YAML, JSON or Markdown with front matter, as `voice pull` writes them). */
export function assistantFile(file: string): Json {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw usageError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  const kind = kindNamed('assistants');
  if (!kind) throw usageError('This build has no assistant resource kind.');
  const { resource, problems } = parseResource(kind, basename(file, extname(file)), file, text);
  if (!resource || problems.length) throw usageError(`${file} is not a usable assistant file:\n${problemsText(problems)}`);
  return resource.data as Json;
}

/** An assistant of a resource folder (by file id, else the only one), its `model.toolIds` replaced by the folder's tools. */
export function folderAssistant(dir: string, id?: string): Json {
  let project;
  try {
    project = readProject(dir);
  } catch (err) {
    throw usageError(`Cannot read the resource folder ${dir}: ${(err as Error).message}`);
  }
  if (project.problems.length) throw usageError(`The resource folder ${dir} has problems:\n${problemsText(project.problems)}`);
  const of = (kind: string): LocalResource[] => project.resources.filter((r) => r.kind.name === kind);
  const assistants = of('assistants');
  const chosen = id === undefined ? (assistants.length === 1 ? assistants[0] : undefined) : assistants.find((r) => r.id === id);
  if (!chosen) {
    const names = assistants.map((r) => r.id).join(', ') || 'none';
    throw usageError(id === undefined ? `Name the assistant to load-test with --assistant ID (the folder has: ${names}).` : `The folder has no assistant "${id}" (it has: ${names}).`);
  }
  const data = structuredClone(chosen.data) as Json;
  const model = data.model as Json | undefined;
  const ids = Array.isArray(model?.toolIds) ? (model.toolIds as unknown[]) : [];
  if (model && ids.length) {
    const tools = of('tools');
    const inline = ids.map((t) => {
      const tool = tools.find((r) => r.id === t);
      if (!tool) throw usageError(`Assistant ${chosen.id} names tool "${String(t)}", which is not in ${dir}/tools.`);
      return structuredClone(tool.data) as Json;
    });
    model.tools = [...((model.tools as Json[] | undefined) ?? []), ...inline];
    delete model.toolIds;
  }
  return data;
}

/** What the server flags set. */
export interface ServerFlags {
  server?: string;
  timeout?: number;
  header?: Record<string, string>;
  credential?: string;
}

/** The assistant with the server flags applied; a usage error when it ends up with no server. */
export function withServer(assistant: Json, flags: ServerFlags): Json {
  const server: Json = { ...((assistant.server as Json | undefined) ?? {}) };
  if (flags.server !== undefined) server.url = flags.server;
  else if (typeof server.url !== 'string' && typeof assistant.serverUrl === 'string') server.url = assistant.serverUrl;
  if (flags.timeout !== undefined) server.timeoutSeconds = flags.timeout;
  if (flags.header) server.headers = { ...((server.headers as Json | undefined) ?? {}), ...flags.header };
  if (flags.credential !== undefined) server.credentialId = flags.credential;
  if (typeof server.url !== 'string' || !server.url)
    throw usageError(
      'voice load needs a server: --server URL (where your server listens), or an assistant whose server is set.',
      'e.g. voice load --server localhost:3000/webhook --calls 50 --rate 5',
    );
  return { ...assistant, server };
}

const SERVER_EXAMPLE = 'e.g. --server localhost:3000/webhook, --server 3000 or --server https://staging.example.com/hook';

/**
 * Reads `--server` as the webhook flags do (a URL, `host:port/path` or a port), and refuses at
 * once what would only fail every delivery: a bare word (`notaurl`) and, when `resolve` (a run
 * here, not an export run from other machines), a host name that does not resolve.
 */
export async function serverUrl(raw: string, resolve = true): Promise<string> {
  const href = targetUrl(raw, '--server');
  const url = new URL(href);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const typedScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw.trim());
  // Without a scheme, a word with no dot and no port is far likelier a slip than a host on the network.
  if (!typedScheme && !url.port && !host.includes('.') && host !== 'localhost' && !isIP(host)) throw usageError(`--server: "${raw}" is not a URL`, SERVER_EXAMPLE);
  if (resolve && !isIP(host) && host !== 'localhost') {
    try {
      await lookup(host);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND') throw usageError(`--server: no host named "${host}" was found`, SERVER_EXAMPLE);
    }
  }
  return href;
}
