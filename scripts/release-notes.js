#!/usr/bin/env node
// Cuts a release in CHANGELOG.md: what is under "## Unreleased" moves below "## <version> (<date>)",
// a new empty "## Unreleased" stays on top, and the release's notes are printed (the GitHub
// release's text). Run by .github/workflows/release.yml: `node scripts/release-notes.js 0.2.0`.
// Refuses (exit 1, file untouched) when there is nothing under "Unreleased" or the version is there.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const UNRELEASED = '## Unreleased';

/** The changelog with `version` cut from its Unreleased section, and that section's notes. */
export function cutRelease(text, version, date) {
  const start = text.indexOf(`${UNRELEASED}\n`);
  if (start < 0) throw new Error(`CHANGELOG.md has no "${UNRELEASED}" section`);
  if (new RegExp(`^## ${version.replace(/\./g, '\\.')} `, 'm').test(text)) throw new Error(`CHANGELOG.md already has a section for ${version}`);
  const bodyStart = start + UNRELEASED.length + 1;
  const next = text.indexOf('\n## ', bodyStart);
  const end = next < 0 ? text.length : next + 1;
  const notes = text.slice(bodyStart, end).trim();
  if (!notes) throw new Error(`Nothing under "${UNRELEASED}" in CHANGELOG.md: say what this release changes first`);
  const released = `${UNRELEASED}\n\n## ${version} (${date})\n\n${notes}\n\n`;
  return { text: `${text.slice(0, start)}${released}${text.slice(end)}`.replace(/\n+$/, '\n'), notes: `${notes}\n` };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [version] = process.argv.slice(2);
  const file = fileURLToPath(new URL('../CHANGELOG.md', import.meta.url));
  if (!version || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) {
    process.stderr.write('Usage: node scripts/release-notes.js <version>   (e.g. 0.2.0)\n');
    process.exit(2);
  }
  try {
    const { text, notes } = cutRelease(readFileSync(file, 'utf8'), version, new Date().toISOString().slice(0, 10));
    writeFileSync(file, text);
    process.stdout.write(notes);
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
