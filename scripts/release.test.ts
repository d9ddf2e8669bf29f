// The release workflow (.github/workflows/release.yml) and its changelog step: the Unreleased
// notes move below the new version and become the GitHub release's text; a release with nothing
// to say, or said twice, is refused.
import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cutRelease } from './release-notes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const changelog = `# Changelog

Intro.

## Unreleased

- Faster \`voice dev\`.
- Fixed a crash.

## 0.1.0 (2026-01-05)

- First release.
`;

describe('release notes', () => {
  it('moves the Unreleased notes below the new version and returns them', () => {
    const { text, notes } = cutRelease(changelog, '0.2.0', '2026-02-01');
    expect(notes).toBe('- Faster `voice dev`.\n- Fixed a crash.\n');
    expect(text).toBe(changelog.replace('## Unreleased\n\n', '## Unreleased\n\n## 0.2.0 (2026-02-01)\n\n'));
    // The next release starts from an empty Unreleased section, and is refused until it has notes.
    expect(() => cutRelease(text, '0.2.1', '2026-02-02')).toThrow(/Nothing under "## Unreleased"/);
  });

  it('refuses a version the changelog already has, and a changelog without an Unreleased section', () => {
    expect(() => cutRelease(changelog, '0.1.0', '2026-02-01')).toThrow('already has a section for 0.1.0');
    expect(() => cutRelease('# Changelog\n', '0.2.0', '2026-02-01')).toThrow('no "## Unreleased" section');
  });

  it("the repository's changelog has the section the workflow cuts, and the script says how to run it", async () => {
    const ours = readFileSync(fileURLToPath(new URL('../CHANGELOG.md', import.meta.url)), 'utf8');
    expect(ours).toMatch(/^## Unreleased$/m);
    const usage = await execa(process.execPath, [fileURLToPath(new URL('release-notes.js', import.meta.url))], { reject: false });
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr).toContain('Usage: node scripts/release-notes.js <version>');
  });
});

interface Workflow {
  on: { workflow_dispatch: { inputs: Record<string, unknown> } };
  jobs: Record<string, { needs?: string; permissions?: Record<string, string>; steps: { run?: string; env?: Record<string, string> }[] }>;
}

describe('the release workflow', () => {
  const workflow = parse(readFileSync(`${ROOT}.github/workflows/release.yml`, 'utf8')) as Workflow;
  const runs = (job: string): string => (workflow.jobs[job]?.steps ?? []).map((step) => step.run ?? '').join('\n');

  it('runs by hand only, after the whole suite, with what provenance and the push need', () => {
    expect(Object.keys(workflow.on)).toEqual(['workflow_dispatch']);
    expect(Object.keys(workflow.on.workflow_dispatch.inputs)).toEqual(['version', 'dry-run']);
    expect(runs('test')).toContain('.ci/run');
    expect(existsSync(`${ROOT}.ci/run`)).toBe(true);
    expect(workflow.jobs.release?.needs).toBe('test');
    expect(workflow.jobs.release?.permissions).toEqual({ contents: 'write', 'id-token': 'write' });
  });

  it("versions every package, cuts the changelog, and publishes each with provenance on the maintainer's token", () => {
    const release = runs('release');
    expect(release).toContain('npm version "$BUMP" --workspaces --include-workspace-root');
    expect(release).toContain('node scripts/release-notes.js "$VERSION"');
    expect(release).toContain('npm publish --provenance --access public $DRY_RUN');
    expect(release).toContain(`for dir in $(node -p "require('./package.json').workspaces.join(' ')") .; do`);
    const publish = workflow.jobs.release?.steps.find((step) => step.run?.includes('npm publish'));
    expect(publish?.env).toEqual({ NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}' });
  });
});
