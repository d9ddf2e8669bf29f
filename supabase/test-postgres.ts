// A throwaway PostgreSQL cluster for tests: Debian's server binaries, a temp data directory, a
// loopback port, trust auth. As root it runs the server as the `postgres` OS user, because
// initdb and postgres refuse to run as root.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** The outcome of one psql run. */
export interface PsqlResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** A running cluster: run SQL through psql, then stop it (which also deletes its files). */
export interface TestPostgres {
  port: number;
  /** Runs SQL from stdin as superuser `postgres`; ON_ERROR_STOP, unaligned, tuples only. */
  psql(sql: string, database?: string): PsqlResult;
  /** Runs a SQL file as superuser `postgres`. */
  psqlFile(file: string, database?: string): PsqlResult;
  stop(): void;
}

/** The directory of the newest installed PostgreSQL server, or undefined when there is none. */
export function findPostgresBin(): string | undefined {
  const fromEnv = process.env.VOICE_PG_BIN;
  if (fromEnv) return existsSync(join(fromEnv, 'postgres')) ? fromEnv : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function run(command: string, args: string[], input?: string): PsqlResult {
  const r = spawnSync(command, args, { input, encoding: 'utf8', timeout: 60_000 });
  if (r.error) throw r.error;
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** Creates, starts and returns a fresh cluster; throws with the server's own words on failure. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL server not found under /usr/lib/postgresql (apt-get install -y postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'voice-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const uid = Number(run('id', ['-u', 'postgres']).stdout.trim());
    const gid = Number(run('id', ['-g', 'postgres']).stdout.trim());
    if (!Number.isInteger(uid) || uid <= 0) throw new Error('running as root needs the `postgres` OS user');
    chownSync(dir, uid, gid);
  }
  // pg tools as the server's owner: `runuser` when we are root, directly otherwise.
  const server = (tool: string, args: string[]): PsqlResult => (asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]) : run(join(bin, tool), args));
  const data = join(dir, 'data');
  const fail = (what: string, r: PsqlResult): never => {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${what} failed (${r.status}): ${r.stderr || r.stdout}`);
  };
  const init = server('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  if (init.status !== 0) fail('initdb', init);
  const port = await freePort();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c full_page_writes=off`;
  const start = server('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start']);
  if (start.status !== 0) fail('pg_ctl start', start);
  const psqlArgs = (db: string) => ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', db];
  let stopped = false;
  return {
    port,
    psql: (sql, database = 'postgres') => run(join(bin, 'psql'), [...psqlArgs(database), '-f', '-'], sql),
    psqlFile: (file, database = 'postgres') => run(join(bin, 'psql'), [...psqlArgs(database), '-f', file]),
    stop() {
      if (stopped) return;
      stopped = true;
      server('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
