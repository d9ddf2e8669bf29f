// The hosted visitors table on a real PostgreSQL: what the public anon key can and cannot do.
// docs/demo.md applies the migration with `psql -v ON_ERROR_STOP=1 -f` as psqlFile does here.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres } from './test-postgres.js';
import type { PsqlResult, TestPostgres } from './test-postgres.js';

const migrations = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const migration = join(migrations, readdirSync(migrations).find((f) => /^\d{14}_visitors\.sql$/.test(f)) ?? 'missing');

let pg: TestPostgres;

/** Runs one statement as `role` inside a transaction, optionally with PostgREST's request headers. */
function as(role: string, statement: string, headers?: Record<string, string>): PsqlResult {
  const lines = ['begin;'];
  if (headers) lines.push(`set local request.headers = '${JSON.stringify(headers).replaceAll("'", "''")}';`);
  lines.push(`set local role ${role};`, `${statement};`, 'commit;');
  return pg.psql(lines.join('\n'));
}

function rows(r: PsqlResult): string[] {
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout.split('\n').filter(Boolean);
}

function table(): string[] {
  return rows(pg.psql('select slug, name from public.visitors order by slug;'));
}

const acme = { 'x-visitor-slug': 'acme' };

beforeAll(async () => {
  pg = await startPostgres();
  // The roles Supabase provides; the migration must not create them itself.
  rows(
    pg.psql(`
    create role anon nologin noinherit;
    create role authenticated nologin noinherit;
    create role service_role nologin noinherit bypassrls;
    grant usage on schema public to anon, authenticated, service_role;
    -- Supabase's default: every new table in public is granted to the API roles.
    alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
  `),
  );
  const applied = pg.psqlFile(migration);
  expect(applied.stderr).not.toMatch(/ERROR|FATAL/);
  expect(applied.status).toBe(0);
  rows(
    pg.psql(`
    insert into public.visitors (slug, name, system, first_message) values
      ('acme', 'Acme Corp', 'You sell to Acme.', 'Hi Acme!'),
      ('globex', 'Globex', 'You sell to Globex.', 'Hi Globex!');
  `),
  );
});

afterAll(() => pg?.stop());

describe('the visitors migration on PostgreSQL', () => {
  it('applies a second time without error', () => {
    const again = pg.psqlFile(migration);
    expect(again.stderr).not.toMatch(/ERROR|FATAL/);
    expect(again.status).toBe(0);
    expect(table()).toEqual(['acme|Acme Corp', 'globex|Globex']);
  });

  it('lets anon with the header read that visitor', () => {
    const r = as('anon', "select name, system, first_message, slug from public.visitors where slug = 'acme'", acme);
    expect(rows(r)).toEqual(['Acme Corp|You sell to Acme.|Hi Acme!|acme']);
  });

  it("shows anon only the header's row when it selects everything", () => {
    expect(rows(as('anon', 'select slug from public.visitors', acme))).toEqual(['acme']);
    expect(rows(as('anon', "select slug from public.visitors where slug = 'globex'", acme))).toEqual([]);
  });

  it('shows anon nothing without the header, with another header, or with an empty one', () => {
    expect(rows(as('anon', 'select slug from public.visitors'))).toEqual([]);
    expect(rows(as('anon', 'select slug from public.visitors', { 'x-other': 'acme' }))).toEqual([]);
    expect(rows(as('anon', 'select slug from public.visitors', { 'x-visitor-slug': '' }))).toEqual([]);
    expect(rows(as('authenticated', 'select slug from public.visitors'))).toEqual([]);
  });

  it("refuses anon inserts, updates and deletes, even for the header's own row", () => {
    const attempts = [
      "insert into public.visitors (slug, name) values ('evil', 'Evil')",
      "update public.visitors set name = 'Hacked' where slug = 'acme'",
      'update public.visitors set name = $$Hacked$$',
      "delete from public.visitors where slug = 'acme'",
      'delete from public.visitors',
      'truncate public.visitors',
    ];
    for (const statement of attempts) {
      for (const headers of [acme, undefined]) {
        const r = as('anon', statement, headers);
        expect(r.status, statement).not.toBe(0);
        expect(r.stderr, statement).toMatch(/permission denied for table visitors/);
      }
    }
    expect(table()).toEqual(['acme|Acme Corp', 'globex|Globex']);
  });

  it('lets the service role manage every row and keeps updated_at current', () => {
    rows(as('service_role', "insert into public.visitors (slug, name) values ('initech', 'Initech')"));
    expect(rows(as('service_role', 'select count(*) from public.visitors'))).toEqual(['3']);
    rows(as('service_role', "update public.visitors set name = 'Initech Inc' where slug = 'initech'"));
    const [touched] = rows(pg.psql("select updated_at > created_at from public.visitors where slug = 'initech';"));
    expect(touched).toBe('t');
    rows(as('service_role', "delete from public.visitors where slug = 'initech'"));
    expect(table()).toEqual(['acme|Acme Corp', 'globex|Globex']);
  });

  it('secures a visitors table that already existed without timestamps', () => {
    rows(pg.psql('create database legacy;'));
    rows(
      pg.psql(
        `
      grant usage on schema public to anon, authenticated, service_role;
      create table public.visitors (id bigint generated always as identity primary key, slug text unique, name text, system text, first_message text);
      grant all on public.visitors to anon, authenticated;
      insert into public.visitors (slug, name) values ('acme', 'Acme'), ('globex', 'Globex');
    `,
        'legacy',
      ),
    );
    const applied = pg.psqlFile(migration, 'legacy');
    expect(applied.stderr).not.toMatch(/ERROR|FATAL/);
    const anon = (statement: string, headers?: Record<string, string>) => {
      const lines = ['begin;', ...(headers ? [`set local request.headers = '${JSON.stringify(headers)}';`] : []), 'set local role anon;', `${statement};`, 'commit;'];
      return pg.psql(lines.join('\n'), 'legacy');
    };
    expect(rows(anon('select slug from public.visitors', acme))).toEqual(['acme']);
    expect(rows(anon('select slug from public.visitors'))).toEqual([]);
    expect(anon("delete from public.visitors where slug = 'acme'", acme).stderr).toMatch(/permission denied/);
    expect(rows(pg.psql('select count(*) from public.visitors where updated_at is not null;', 'legacy'))).toEqual(['2']);
  });

  it('rejects slugs the page could not route to', () => {
    for (const slug of ['Acme', 'has space', '', 'a'.repeat(65), 'ünï']) {
      const r = pg.psql(`insert into public.visitors (slug, name) values ('${slug}', 'x');`);
      expect(r.stderr, slug).toMatch(/visitors_slug_format/);
    }
  });
});
