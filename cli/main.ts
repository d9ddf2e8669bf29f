// Entry of the bundled CLI (dist/cli/main.js): builds the program and runs it. No rendering
// and no heavy imports here: commands with heavy modules load only when named (see program.ts).
import { LAZY_COMMANDS } from './commands/index.js';
import { main } from './program.js';

await main(process.argv.slice(2), LAZY_COMMANDS);
