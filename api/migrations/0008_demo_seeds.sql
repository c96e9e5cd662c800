-- Demo data that is seeded once and then belongs to the administrators (SEED_DEMO_ACTIVITY): a
-- row per seed says it ran, so a later start never adds it again, even after administrators
-- deleted or changed what it made. `running` rows are claims: two API processes on one
-- PostgreSQL seed once, and a claim left by a crashed start is taken over after a while (the
-- seed resumes, skipping what the crashed run already wrote).
create table demo_seeds (
  name text primary key check (name ~ '^[a-z][a-z0-9_-]*$'),
  state text not null check (state in ('running', 'done')),
  claimed_at timestamptz not null default now(),
  done_at timestamptz
);
