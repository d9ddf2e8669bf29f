// Relative links in the guides: each must name a file of the repository and, after `#`, a heading
// of that file (GitHub's anchors: the heading's text in lower case, punctuation dropped, spaces
// as hyphens).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** GitHub's anchor for a heading's text. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks), with GitHub's -1, -2 for repeats. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = anchorOf(m[1] as string);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

/** The targets of a Markdown file's inline links and images, outside code (`[text](target)`). */
export function linksOf(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) return;
    const text = line.replace(/`[^`]*`/g, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ target: m[1] as string, line: i + 1 });
  });
  return links;
}

/** What is wrong with each relative link of `file` (a path under `root`): an empty list when all resolve. */
export function brokenLinks(root: string, file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const problems: string[] = [];
  for (const { target, line } of linksOf(text)) {
    if (/^[a-z]+:/i.test(target)) continue;
    const [path = '', anchor] = target.split('#');
    const to = path ? join(dirname(join(root, file)), decodeURIComponent(path)) : join(root, file);
    if (!existsSync(to)) {
      problems.push(`${file}:${line}: ${target}: no such file (${relative(root, to)})`);
      continue;
    }
    if (anchor === undefined || !to.endsWith('.md') || statSync(to).isDirectory()) continue;
    if (!anchorsOf(readFileSync(to, 'utf8')).has(anchor)) problems.push(`${file}:${line}: ${target}: no heading "#${anchor}" in ${relative(root, to)}`);
  }
  return problems;
}
