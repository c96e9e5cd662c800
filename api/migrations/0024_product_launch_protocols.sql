-- The URL schemes a launch may name besides the product's own `protocol` (issue #25 point 4), e.g.
-- a VR build of the app registered under a scheme of its own. The launch query's `protocol` must be
-- one of them or `protocol` itself; the launch link is built from the entry it equals, never from
-- the query's text.

-- Every element a lower-case RFC 3986 scheme, as `protocol` is (a check cannot hold a subquery).
create function is_url_scheme_list(list text[]) returns boolean
  language sql immutable
  as $$ select coalesce(bool_and(s is not null and s ~ '^[a-z][a-z0-9+.-]*$'), true)
          from unnest(list) as s $$;

alter table products
  add column alternative_protocols text[] not null default '{}'
    check (is_url_scheme_list(alternative_protocols)
           and not protocol = any(alternative_protocols));
