// `voice completion bash|zsh|fish`: scripts with the whole command tree baked in, so completing
// never starts node.
import { Command } from 'commander';
import { usageError } from '../../errors.js';
import { out } from '../../redact.js';

/** Children and long flags of every command path (`_` is the root, `_ assistant` below it). */
export interface Tree {
  children: Map<string, string[]>;
  flags: Map<string, string[]>;
}

/** A command's subcommands as its help lists them (commander's choice), without the implicit `help`. */
export function visibleCommands(cmd: Command): Command[] {
  return cmd
    .createHelp()
    .visibleCommands(cmd)
    .filter((c) => c.name() !== 'help');
}

/** Walks a command tree into completion tables. */
export function treeOf(root: Command): Tree {
  const children = new Map<string, string[]>();
  const flags = new Map<string, string[]>();
  const walk = (cmd: Command, key: string): void => {
    const subs = visibleCommands(cmd);
    if (subs.length)
      children.set(
        key,
        subs.map((c) => c.name()),
      );
    const long = cmd.options.map((o) => o.long).filter((f): f is string => Boolean(f));
    if (key === '_') long.push('--help');
    if (long.length) flags.set(key, long);
    for (const c of subs) walk(c, `${key} ${c.name()}`);
  };
  walk(root, '_');
  return { children, flags };
}

const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

function bash(t: Tree): string {
  const entries = (m: Map<string, string[]>): string => [...m].map(([k, v]) => `  [${sq(k)}]=${sq(v.join(' '))}`).join('\n');
  return `# bash completion for voice. Load it with: eval "$(voice completion bash)"
declare -gA _voice_tree=(
${entries(t.children)}
)
declare -gA _voice_flags=(
${entries(t.flags)}
)
_voice_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" p="_" w i
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    [[ -n "\${_voice_tree["$p $w"]+x}\${_voice_flags["$p $w"]+x}" ]] && p="$p $w"
  done
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "\${_voice_flags[$p]} \${_voice_flags[_]}" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "\${_voice_tree[$p]}" -- "$cur"))
  fi
}
complete -F _voice_complete voice
`;
}

function zsh(t: Tree): string {
  const entries = (m: Map<string, string[]>): string => [...m].map(([k, v]) => `  ${sq(k)} ${sq(v.join(' '))}`).join('\n');
  return `#compdef voice
# zsh completion for voice. Load it with: eval "$(voice completion zsh)"
typeset -gA _voice_tree _voice_flags
_voice_tree=(
${entries(t.children)}
)
_voice_flags=(
${entries(t.flags)}
)
_voice() {
  local p="_" w i
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    [[ "$w" == -* ]] && continue
    (( \${+_voice_tree[$p $w]} || \${+_voice_flags[$p $w]} )) && p="$p $w"
  done
  if [[ "\${words[CURRENT]}" == -* ]]; then
    compadd -- \${=_voice_flags[$p]} \${=_voice_flags[_]}
  else
    compadd -- \${=_voice_tree[$p]}
  fi
}
if (( $+functions[compdef] )); then compdef _voice voice; fi
`;
}

function fish(t: Tree): string {
  const cases = (m: Map<string, string[]>): string => [...m].map(([k, v]) => `    case ${sq(k)}\n      echo ${sq(v.join(' '))}`).join('\n');
  return `# fish completion for voice. Load it with: voice completion fish | source
function __voice_children
  switch $argv[1]
${cases(t.children)}
  end
end
function __voice_flags
  switch $argv[1]
${cases(t.flags)}
  end
end
function __voice_complete
  set -l tokens (commandline -opc)
  set -l p _
  for w in $tokens[2..-1]
    if string match -q -- '-*' $w
      continue
    end
    if contains -- $w (string split ' ' (__voice_children $p))
      set p "$p $w"
    end
  end
  if string match -q -- '-*' (commandline -ct)
    string split ' ' (__voice_flags $p) (__voice_flags _)
  else
    string split ' ' (__voice_children $p)
  end
end
complete -c voice -f -a '(__voice_complete)'
`;
}

/** The `completion` command; `root` gives the fully built command tree. */
export function completionCommand(root: () => Promise<Command>): Command {
  return new Command('completion')
    .description('Print a shell completion script (bash, zsh or fish)')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      '\nExamples:\n  $ eval "$(voice completion bash)"      # in ~/.bashrc\n  $ eval "$(voice completion zsh)"       # in ~/.zshrc\n  $ voice completion fish > ~/.config/fish/completions/voice.fish\n',
    )
    .action(async (shell: string) => {
      const make = { bash, zsh, fish }[shell as 'bash'];
      if (!make) throw usageError(`Unknown shell "${shell}": use bash, zsh or fish`);
      out(make(treeOf(await root())));
    });
}
