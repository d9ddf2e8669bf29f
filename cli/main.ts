// Placeholder entry until the CLI lands: prints help and version.
import { Command } from 'commander';
import { VERSION } from '../core/version.js';

const program = new Command('voice').version(VERSION).description('Toolkit for the voice-AI agent platform');
await program.parseAsync(process.argv);
