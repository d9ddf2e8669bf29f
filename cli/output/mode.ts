// Decides once per run how output looks: JSON, plain rows for pipes, or Ink on a terminal,
// and whether colour is allowed (NO_COLOR, TERM=dumb, --no-color).

/** How data is written to stdout. */
export type Mode = 'json' | 'plain' | 'ink';

/** Output settings of a run. */
export interface OutputSettings {
  mode: Mode;
  /** Pretty JSON (on a terminal) or compact (piped). */
  pretty: boolean;
  /** Colour on stdout. */
  color: boolean;
  /** Colour on stderr. */
  errColor: boolean;
  /** Terminal width for tables. */
  width: number;
  /** Whether a spinner may be drawn on stderr. */
  spinner: boolean;
  /** Tables show every cell whole (`--wide`). */
  wide: boolean;
  /** The fields a table shows, in order (`--columns id,name`); the resource's own when absent. */
  columns?: string[];
}

/** Works out the output settings from the flags, the environment and the streams. */
export function outputSettings(
  opts: { json?: boolean; color?: boolean; wide?: boolean; columns?: string },
  env: NodeJS.ProcessEnv = process.env,
  stdout: { isTTY?: boolean; columns?: number } = process.stdout,
  stderr: { isTTY?: boolean } = process.stderr,
): OutputSettings {
  const dumb = env.TERM === 'dumb';
  const colorAllowed = opts.color !== false && !('NO_COLOR' in env && env.NO_COLOR !== '') && !dumb;
  const outTTY = Boolean(stdout.isTTY);
  const errTTY = Boolean(stderr.isTTY);
  return {
    mode: opts.json ? 'json' : outTTY ? 'ink' : 'plain',
    pretty: outTTY,
    color: colorAllowed && outTTY,
    errColor: colorAllowed && errTTY,
    width: stdout.columns && stdout.columns > 20 ? stdout.columns : 100,
    spinner: outTTY && errTTY && !dumb && !env.CI,
    wide: Boolean(opts.wide),
    ...(typeof opts.columns === 'string'
      ? {
          columns: opts.columns
            .split(',')
            .map((c) => c.trim())
            .filter(Boolean),
        }
      : {}),
  };
}
