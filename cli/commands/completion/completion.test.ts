import { execFileSync } from 'node:child_process';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../program.js';
import { completionCommand, treeOf } from './index.js';

async function script(shell: string): Promise<string> {
  const program = await buildProgram(['completion', shell]);
  let text = '';
  const cmd = program.commands.find((c) => c.name() === 'completion') as Command;
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((s: string) => ((text += s), true)) as typeof process.stdout.write;
  try {
    await program.parseAsync(['completion', shell], { from: 'user' });
  } finally {
    process.stdout.write = write;
  }
  expect(cmd).toBeDefined();
  return text;
}

function complete(bash: string, line: string): string[] {
  const words = line.split(' ');
  const prog = `${bash}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _voice_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', prog], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

describe('completion', () => {
  it('completes resources, nested resources, actions and flags in bash', async () => {
    const bash = await script('bash');
    expect(complete(bash, 'voice assi')).toEqual(['assistant']);
    expect(complete(bash, 'voice test-suite run ')).toEqual(['list', 'create', 'get', 'update', 'delete']);
    expect(complete(bash, 'voice assistant list --li')).toEqual(['--limit']);
    expect(complete(bash, 'voice --json assistant get --js')).toEqual(['--json']);
  });

  it('emits zsh and fish scripts with the same tree', async () => {
    expect(await script('zsh')).toContain("'_ test-suite run' 'list create get update delete'");
    expect(await script('fish')).toContain("case '_ voice-library'");
  });

  it('refuses other shells', async () => {
    const root = new Command('voice').exitOverride();
    root.addCommand(completionCommand(async () => root).exitOverride());
    await expect(root.parseAsync(['completion', 'tcsh'], { from: 'user' })).rejects.toThrow(/bash, zsh or fish/);
    expect(treeOf(root).children.get('_')).toEqual(['completion']);
  });
});
