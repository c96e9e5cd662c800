import type { UserRecord } from '../../accounts/users';
import { AdminError } from './errors';

/** Keycloak's user search parameters, as the admin client sends them. */
export type SearchQuery = Record<string, string | undefined>;

const lower = (value: string) => value.toLowerCase();

/**
 * Keycloak's user search: `search` is a prefix match on username, e-mail, first and last name
 * (`*` is a wildcard, `"…"` exact); the attribute parameters are infix matches, or exact with
 * `exact=true`; all case-insensitive, ordered by username, paged with `first` and `max`.
 */
export function matcher(query: SearchQuery): (user: UserRecord) => boolean {
  const checks: ((user: UserRecord) => boolean)[] = [];
  const exact = query.exact === 'true';
  const search = query.search?.trim();
  if (search && search !== '*') {
    let test: (value: string) => boolean;
    if (search.length > 1 && search.startsWith('"') && search.endsWith('"')) {
      const wanted = lower(search.slice(1, -1));
      test = (value) => lower(value) === wanted;
    } else {
      const pattern = search.includes('*') ? search : `${search}*`;
      const regex = new RegExp(
        `^${pattern
          .split('*')
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
        'i',
      );
      test = (value) => regex.test(value);
    }
    checks.push((user) => [user.username, user.email, user.firstName, user.lastName].some(test));
  }
  for (const field of ['username', 'email', 'firstName', 'lastName'] as const) {
    const value = query[field];
    if (value === undefined) continue;
    const wanted = lower(value.trim());
    checks.push((user) => (exact ? lower(user[field]) === wanted : lower(user[field]).includes(wanted)));
  }
  for (const field of ['enabled', 'emailVerified'] as const) {
    const value = query[field];
    if (value === 'true' || value === 'false') checks.push((user) => user[field] === (value === 'true'));
  }
  return (user) => checks.every((check) => check(user));
}

export function nonNegativeInteger(query: SearchQuery, name: string, fallback: number): number {
  const raw = query[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new AdminError(400, { error: `Invalid ${name}` });
  return value;
}

