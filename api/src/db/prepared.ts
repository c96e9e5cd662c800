import { createHash } from 'node:crypto';

/** Statement text → the name it is prepared under on each PostgreSQL connection. */
const names = new Map<string, string>();

/**
 * Marks a statement of a hot path to be planned once per connection instead of at every call
 * (a named prepared statement; the text is returned unchanged, so call sites read as before).
 * Planning these took a third of PostgreSQL's time under the learner load — more than running
 * them (api/README, "Where the time goes"). Only fixed texts whose plan does not depend on the
 * values belong here: PostgreSQL may switch a prepared statement to one generic plan, which is
 * right for look-ups by key and wrong for the report lists' filters and orderings. PGlite ignores
 * the mark.
 */
export function prepared(sql: string): string {
  if (!names.has(sql)) {
    names.set(sql, `portal_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`);
  }
  return sql;
}

/** The prepared statement name of `sql`, if it was marked. */
export function preparedName(sql: string): string | undefined {
  return names.get(sql);
}
