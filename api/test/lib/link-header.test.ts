import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { linkTargets } from '../../src/lib/link-header';

const base = 'https://lms.test/nrps/contexts/c1/memberships';
const rels = (header: string | null) => Object.fromEntries(linkTargets(header, base));

describe('linkTargets (RFC 8288 Link header)', () => {
  test('Canvas paging: one comma-joined header with quoted rels', () => {
    const header =
      '<https://lms.test/m?page=1&limit=50>; rel="current",<https://lms.test/m?page=2&limit=50>; rel="next",' +
      '<https://lms.test/m?page=1&limit=50>; rel="first",<https://lms.test/m?page=3&limit=50>; rel="last"';
    assert.deepEqual(rels(header), {
      current: 'https://lms.test/m?page=1&limit=50',
      next: 'https://lms.test/m?page=2&limit=50',
      first: 'https://lms.test/m?page=1&limit=50',
      last: 'https://lms.test/m?page=3&limit=50',
    });
  });

  test('unquoted and multi-valued rels, extra parameters, spaces, case', () => {
    assert.deepEqual(
      rels(
        '<https://lms.test/a> ; title="A, b; c" ; REL=next , <https://lms.test/b>; rel="prev first"',
      ),
      { next: 'https://lms.test/a', prev: 'https://lms.test/b', first: 'https://lms.test/b' },
    );
  });

  test('commas inside the target do not split it; relative targets resolve against the page', () => {
    assert.deepEqual(rels('</nrps/m?ids=1,2,3&page=2>; rel="next"'), {
      next: 'https://lms.test/nrps/m?ids=1,2,3&page=2',
    });
  });

  test('the first link of a relation wins; a second rel parameter is ignored', () => {
    assert.deepEqual(
      rels('<https://lms.test/1>; rel=next; rel=last, <https://lms.test/2>; rel=next'),
      {
        next: 'https://lms.test/1',
      },
    );
  });

  test('nothing usable: no header, no rel, garbage', () => {
    assert.deepEqual(rels(null), {});
    assert.deepEqual(rels(''), {});
    assert.deepEqual(rels('<https://lms.test/1>; title=x'), {});
    assert.deepEqual(rels('rel="next"'), {});
    assert.deepEqual(rels('<http://[::1/>; rel=next'), {});
  });
});
