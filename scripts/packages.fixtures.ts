// The fresh projects scripts/packages.test.ts installs the packed packages into: a Node ESM
// backend (REST client + emulator; TypeScript with nodenext) and a Vite React web app (the browser
// faces; TypeScript with bundler), which also loads every face in Node, with `import` and with
// `require()`. Each `@ts-expect-error` proves the types are not `any`.

/** File path -> contents. */
export type ProjectFiles = Record<string, string>;

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

const node: ProjectFiles = {
  'package.json': json({ name: 'node-app', version: '1.0.0', private: true, type: 'module' }),
  'main.js': `import { createClient, NotFoundError } from 'voice-agent-core/client';
import { startEmulator } from 'voice-agent-core/emulator';

const emulator = await startEmulator({ port: 0 });
try {
  const client = createClient({ apiKey: 'any-key', baseUrl: emulator.url });
  const created = await client.assistant.create({ name: 'Front desk' });
  const got = await client.assistant.get(created.id);
  const listed = (await client.assistant.list()).length;
  let notFound = 0;
  try {
    await client.assistant.get('nope');
  } catch (e) {
    if (e instanceof NotFoundError) notFound = e.status;
  }
  console.log(JSON.stringify({ name: got.name, listed, notFound }));
} finally {
  await emulator.close();
}
`,
  'tsconfig.json': json({
    compilerOptions: {
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: ['node'],
      typeRoots: ['../web-app/node_modules/@types'],
    },
    include: ['src'],
  }),
  'src/index.ts': `import { createClient, NotFoundError, type Assistant, type Paginated, type TestRun } from 'voice-agent-core/client';
import { startEmulator, type Emulator } from 'voice-agent-core/emulator';

export async function frontDesk(): Promise<Assistant> {
  const emulator: Emulator = await startEmulator({ port: 0 });
  const client = createClient({ apiKey: 'k', baseUrl: emulator.url, maxRetries: 0 });
  const created: Assistant = await client.assistant.create({ name: 'Front desk', model: { provider: 'openai', model: 'gpt-4o' } });
  const id: string = created.id;
  for await (const a of client.assistant.list({ limit: 10 })) void a.id;
  const runs: Paginated<TestRun> = await client.testSuite.run.list('suite-1', { page: 2 });
  void runs.results;
  await client.file.create({ file: './faq.pdf', purpose: 'assistant' });
  // @ts-expect-error ids are strings
  void client.assistant.get(1);
  // @ts-expect-error a squad needs members
  void client.squad.create({ name: 'no members' });
  // @ts-expect-error results are typed: an assistant's name is a string
  const wrongName: number | undefined = created.name;
  void wrongName;
  try {
    return await client.assistant.get(id);
  } catch (e) {
    if (e instanceof NotFoundError) console.error(e.status, e.requestId);
    throw e;
  } finally {
    await emulator.close();
  }
}
`,
};

/**
 * Prints, as JSON, each face core's package.json exports (`client`, ...) with the names it exports
 * (less `__esModule`, the marker Node's require() adds to an ES module with a default export).
 */
const faces = (load: string): string => `const { exports: map } = require('voice-agent-core/package.json');
const names = {};
for (const key of Object.keys(map).filter((k) => k !== './package.json')) names[key.slice(2)] = Object.keys(${load}).filter((n) => n !== '__esModule').sort();
console.log(JSON.stringify(names));
`;

const web: ProjectFiles = {
  'package.json': json({ name: 'web-app', version: '1.0.0', private: true, type: 'module' }),
  'index.html': '<!doctype html>\n<html><body><div id="root"></div><script type="module" src="/src/main.jsx"></script></body></html>\n',
  'vite.config.js': "import react from '@vitejs/plugin-react';\n\nexport default { plugins: [react()] };\n",
  'src/main.jsx': `import { createRoot } from 'react-dom/client';
import { createClient } from 'voice-agent-core/client';
import { useWebCall } from 'voice-agent-core/react';
import { verifyServerMessage } from 'voice-agent-core/verify';
import WebCall from 'voice-agent-core/webcall';

function App() {
  const { state, start } = useWebCall('public-key');
  const talk = () => {
    const call = new WebCall('public-key');
    call.on('call-start', () => console.log('listening'));
    void call.start('assistant-id');
  };
  const recent = () => createClient({ apiKey: 'key' }).call.list({ limit: 5 });
  const check = () => verifyServerMessage({ body: '{}', headers: {}, plan: { type: 'bearer', token: 'secret' } });
  return (
    <>
      <button onClick={talk}>Talk to us</button>
      <button onClick={() => void start('assistant-id')}>{state}</button>
      <button onClick={() => void recent().then(console.log)}>Recent</button>
      <button onClick={() => void check().then(console.log)}>Check</button>
    </>
  );
}

createRoot(document.getElementById('root')).render(<App />);
`,
  // A browser build that imports a Node-only face (vite build --config vite.node-only.config.js).
  'vite.node-only.config.js': "export default { build: { outDir: 'dist-node-only', rollupOptions: { input: 'src/node-only.js' } }, logLevel: 'error' };\n",
  'src/node-only.js': "import { startEmulator } from 'voice-agent-core/emulator';\n\nconsole.log(startEmulator);\n",
  'faces.cjs': faces('require(`voice-agent-core/${key.slice(2)}`)'),
  'faces.mjs': `import { createRequire } from 'node:module';\n\nconst require = createRequire(import.meta.url);\n${faces('await import(`voice-agent-core/${key.slice(2)}`)')}`,
  'tsconfig.json': json({
    compilerOptions: { target: 'es2022', module: 'esnext', moduleResolution: 'bundler', lib: ['es2022', 'dom', 'dom.iterable'], strict: true, noEmit: true, skipLibCheck: false, types: [] },
    include: ['src/**/*.ts'],
  }),
  'src/call.ts': `import WebCall, { type WebCallResponse } from 'voice-agent-core/webcall';
import { createClient, type Call } from 'voice-agent-core/client';

export async function talk(publicKey: string): Promise<WebCallResponse | null> {
  const call = new WebCall(publicKey);
  call.on('message', (m) => console.log(m.type));
  call.on('volume-level', (level: number) => console.log(level));
  // @ts-expect-error setMuted takes a boolean
  call.setMuted('yes');
  return call.start('assistant-id', { firstMessage: 'Hi Ada!' });
}

export async function recent(apiKey: string): Promise<Call[]> {
  const client = createClient({ apiKey });
  // @ts-expect-error limit is a number
  void client.call.list({ limit: 'ten' });
  return client.call.list({ limit: 5 });
}
`,
};

/** The test projects, by name. */
export const PROJECTS = { node, web };
