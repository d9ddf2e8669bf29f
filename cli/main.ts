// Entry of the bundled CLI (dist/cli/main.js): builds the program and runs it. No rendering
// and no heavy imports here: commands with heavy modules load only when named (see program.ts).
import { main } from './program.js';

await main(process.argv.slice(2), [
  { name: 'dev', description: 'Run the local platform emulator: the whole API on loopback, no key, no internet, no cost', load: async () => (await import('./commands/dev.js')).devCommand() },
  { name: 'demo', description: 'Serve the personalised demo page locally (visitors and Call Me work offline)', load: async () => (await import('./commands/demo.js')).demoCommand() },
  { name: 'pull', description: 'Write the account\'s resources as files in the gitops layout (configuration as code)', load: async () => (await import('./commands/pull.js')).pullCommand() },
  { name: 'plan', description: 'Show what `voice apply` would change, field by field', load: async () => (await import('./commands/plan.js')).planCommand() },
  { name: 'apply', description: 'Apply the resource files to the account: create, update, and with --prune delete', load: async () => (await import('./commands/apply.js')).applyCommand() },
  { name: 'visitor', description: 'manage the prospects who get a personalised demo page (local file, or the hosted table when configured)', load: async () => (await import('./commands/visitor.js')).visitorCommand() },
  { name: 'listen', description: "Receive the platform's server messages locally: print each, forward it to your server and relay the answer", load: async () => (await import('./commands/listen.js')).listenCommand() },
  { name: 'mcp', description: 'MCP server for coding agents: build, call and test voice agents on the local platform (setup writes the project\'s client config)', load: async () => (await import('./commands/mcp.js')).mcpCommand() },
  { name: 'trigger', description: 'Send one realistic server message (any type) to your server, and check its answer', load: async () => (await import('./commands/trigger.js')).triggerCommand() },
]);
