// The commands whose modules load only when the command line names them (dev, demo, gitops,
// visitors, the webhook loop), as the program's stubs describe them.
import type { ExtraCommands } from '../program.js';

/** The lazily loaded commands of the full CLI. */
export const LAZY_COMMANDS: ExtraCommands = [
  { name: 'dev', description: 'Run the local platform emulator: the whole API on loopback, no key, no internet, no cost', load: async () => (await import('./dev/index.js')).devCommand() },
  { name: 'demo', description: 'Serve the personalised demo page locally (visitors and Call Me work offline)', load: async () => (await import('./demo/index.js')).demoCommand() },
  { name: 'pull', description: "Write the account's resources as files in the gitops layout (configuration as code)", load: async () => (await import('./gitops/index.js')).pullCommand() },
  { name: 'plan', description: 'Show what `voice apply` would change, field by field', load: async () => (await import('./gitops/index.js')).planCommand() },
  { name: 'apply', description: 'Apply the resource files to the account: create, update, and with --prune delete', load: async () => (await import('./gitops/index.js')).applyCommand() },
  {
    name: 'visitor',
    description: 'manage the prospects who get a personalised demo page (local file, or the hosted table when configured)',
    load: async () => (await import('./visitor/index.js')).visitorCommand(),
  },
  {
    name: 'listen',
    description: "Receive the platform's server messages locally: print each, forward it to your server and relay the answer",
    load: async () => (await import('./listen/index.js')).listenCommand(),
  },
  {
    name: 'load',
    description: "Load-test your server with the platform's traffic: many calls at once, every message in order, deadlines enforced",
    load: async () => (await import('./load/index.js')).loadCommand(),
  },
  {
    name: 'mcp',
    description: "MCP server for coding agents: build, call and test voice agents on the local platform (setup writes the project's client config)",
    load: async () => (await import('./mcp/index.js')).mcpCommand(),
  },
  {
    name: 'test',
    description: "Run the folder's evals and simulations on a model (locally or hosted) and report: a table, flaky verdicts, JUnit for CI",
    load: async () => (await import('./test/index.js')).testCommand(),
  },
  { name: 'trigger', description: 'Send one realistic server message (any type) to your server, and check its answer', load: async () => (await import('./trigger/index.js')).triggerCommand() },
];
