-- The visitors table behind the personalised demo page.
--
-- The page reads its visitor with the public anon key, which anyone can copy out of the page.
-- So the anon role may read exactly one row: the one whose slug the request names in the
-- `x-visitor-slug` header (PostgREST exposes request headers to policies as JSON in
-- `request.headers`). Listing every prospect's name and system prompt is impossible with that
-- key, and it cannot write at all. Managing visitors needs the service-role key (`voice visitor`).

create table if not exists public.visitors (
  slug text primary key
    constraint visitors_slug_format check (slug ~ '^[a-z0-9-]{1,64}$'),
  name text not null,
  system text not null default '',
  first_message text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- A project that already has the page's original visitors table gets the timestamps too.
alter table public.visitors add column if not exists created_at timestamptz not null default now();
alter table public.visitors add column if not exists updated_at timestamptz not null default now();

comment on table public.visitors is
  'Prospects of the personalised demo page; anon reads only the row named by the x-visitor-slug header.';

create or replace function public.visitors_touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

drop trigger if exists visitors_touch_updated_at on public.visitors;
create trigger visitors_touch_updated_at
  before update on public.visitors
  for each row execute function public.visitors_touch_updated_at();

alter table public.visitors enable row level security;

-- Supabase grants every table in `public` to anon and authenticated by default; take that back
-- and give the public roles nothing but SELECT, which the policy below narrows to one row.
revoke all on table public.visitors from public, anon, authenticated;
grant select on table public.visitors to anon, authenticated;
grant all on table public.visitors to service_role;
revoke all on function public.visitors_touch_updated_at() from public, anon, authenticated;

drop policy if exists visitors_read_own_slug on public.visitors;
-- `nullif(..., '')`: the setting is empty, not null, once a transaction that set it has ended.
-- The `(select ...)` lets PostgreSQL evaluate the header once per statement, not once per row.
create policy visitors_read_own_slug on public.visitors
  for select
  to anon, authenticated
  using (
    slug = (select nullif(current_setting('request.headers', true), '')::json ->> 'x-visitor-slug')
  );
