// Reading a guide's shell blocks as bash would: commands, words, and the programs each runs.

/** Splits a shell block into commands: comments and blank lines dropped, `\` continuations joined, here-documents kept whole. */
export function commandsOf(code: string): string[] {
  const out: string[] = [];
  const lines = code.split('\n');
  let current = '';
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\s+#.*$/, '').replace(/^#.*$/, '');
    if (line.trim() === '' && current === '') continue;
    if (line.endsWith('\\')) {
      current += line.slice(0, -1) + ' ';
      continue;
    }
    current += line;
    const heredoc = /<<-?\s*(['"]?)(\w+)\1/.exec(line);
    if (heredoc) {
      for (i++; i < lines.length && (lines[i] as string).trim() !== heredoc[2]; i++) current += '\n' + (lines[i] as string);
      current += '\n' + (heredoc[2] as string);
    }
    if (current.trim()) out.push(current.trim());
    current = '';
  }
  return out;
}

/** Shell words of one command line (single and double quotes; no expansion). */
export function wordsOf(command: string): string[] {
  const words: string[] = [];
  const re = /'([^']*)'|"((?:\\.|[^"\\])*)"|([^\s'"]+)/g;
  let word: string | undefined;
  let last = 0;
  for (let m = re.exec(command); m; m = re.exec(command)) {
    const piece = m[1] ?? m[2]?.replace(/\\(.)/g, '$1') ?? m[3] ?? '';
    // Pieces with no space between them are one word (`--set name="A B"`).
    if (word !== undefined && m.index === last) word += piece;
    else {
      if (word !== undefined) words.push(word);
      word = piece;
    }
    last = re.lastIndex;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The programs a command runs: the first word of each pipeline step and `$(...)`, after NAME=value words. */
export function programsOf(command: string): string[] {
  const body = command.replace(/<<-?\s*(['"]?)(\w+)\1[\s\S]*$/, '');
  const steps: string[] = [];
  let step = '';
  let quote = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (quote === "'") quote = c === "'" ? '' : quote;
    else if (c === '$' && body[i + 1] === '(') {
      steps.push(step);
      step = '';
      i++;
      continue;
    } else if (quote === '"') quote = c === '"' ? '' : quote;
    else if (c === "'" || c === '"') quote = c;
    else if ('|;&()'.includes(c)) {
      steps.push(step);
      step = '';
      continue;
    }
    step += c;
  }
  steps.push(step);
  return steps
    .map((s) => {
      const words = wordsOf(s.trim()).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
      return words[0] === '_exits' ? words[2] : words[0];
    })
    .filter((w): w is string => w !== undefined);
}
