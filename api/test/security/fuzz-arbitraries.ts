import fc from 'fast-check';
import { account, authHeader, xsrfHeaders } from '../helper';

// The building blocks every feature's fuzzer (the *-fuzz.ts files next to the features) shares
// with the fuzz suite (fuzz-write-routes.test.ts). Each feature still names its own hostile samples:
// the strings that hit its columns and paths.

/**
 * Mostly the global administrator, who gets past the permission into the route's own checks;
 * sometimes Demo Hospital's administrator, who must be refused.
 */
export const adminActor = fc.oneof(
  { weight: 4, arbitrary: fc.constant(account('sys admin').sub) },
  fc.constant(account('org admin', 'Demo Hospital').sub),
);

/** Short random text (also raw bytes unless `binary: false`) or one of a feature's own samples. */
export function hostileText(
  samples: readonly string[],
  { binary = true }: { binary?: boolean } = {},
): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ maxLength: 30 }),
    ...(binary ? [fc.string({ unit: 'binary', maxLength: 30 })] : []),
    fc.constantFrom(...samples),
  );
}

/** Any JSON value, hostile text, or null (and any integer unless `integer: false`). */
export function anyJson(
  hostile: fc.Arbitrary<string>,
  { maxDepth = 3, integer = true }: { maxDepth?: number; integer?: boolean } = {},
): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.jsonValue({ maxDepth }),
    hostile,
    ...(integer ? [fc.integer()] : []),
    fc.constant(null),
  );
}

/** Usually no query string; sometimes one stray parameter of hostile text. */
export function strayQuery(hostile: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant('') },
    hostile.map((s) => `?${new URLSearchParams({ x: s })}`),
  );
}

/** A bearer token of `sub` and a matching XSRF pair: what every unsafe request carries. */
export async function writeHeaders(sub: string): Promise<Record<string, string>> {
  return { ...(await authHeader(sub)), ...xsrfHeaders() };
}
