import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * Ids (and other integers) stored as PostgreSQL `integer`: anything above is no id of ours, and
 * sending it to the database would be an error there (a 500) instead of a 400 here.
 */
export const MAX_INT4 = 2_147_483_647;

/** DRF-style paged list (docs/decisions.md#api-conventions): page from 1, `ordering` with '-' for descending, `filter`. */
export const PagedQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    ordering: Type.Optional(Type.String({ maxLength: 64 })),
    filter: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false },
);
export type PagedQuery = Static<typeof PagedQuery>;

export const Paged = <T extends TSchema>(item: T) =>
  Type.Object({
    count: Type.Integer(),
    totalPages: Type.Integer(),
    results: Type.Array(item),
  });
export interface PagedResult<T> {
  count: number;
  totalPages: number;
  results: T[];
}

/** 400 body: `{field: ["message", ...]}`; a non-field error uses the key `non_field_errors`. */
export const FieldErrors = Type.Record(Type.String(), Type.Array(Type.String()));
export type FieldErrors = Static<typeof FieldErrors>;

/** 401/403/404 body, e.g. `{detail: "Invalid page."}`. */
export const Detail = Type.Object({ detail: Type.String() });
export type Detail = Static<typeof Detail>;

export const INVALID_PAGE = 'Invalid page.';
export const DEFAULT_PAGE_SIZE = 20;
export const TABLE_PAGE_SIZE = 10;

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `value` is a uuid in its hyphenated text form (either case): user, session and launch ids
 * are checked with this before they reach the database (where a malformed one is an error, a 500)
 * or a route.
 */
export function isUuid(value: string): boolean {
  return UUID_TEXT.test(value);
}
