import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasAnyPermission } from './permissions';

test('a check passes when any one of the asked permissions is held', () => {
  assert.equal(hasAnyPermission(['global.access_sims'], ['global.view_org', 'global.access_sims']), true);
});

test('a check fails when none is held or the user is unknown', () => {
  assert.equal(hasAnyPermission(['global.access_sims'], ['global.view_org']), false);
  assert.equal(hasAnyPermission(undefined, ['global.view_org']), false);
});

test('asking for nothing always passes', () => {
  assert.equal(hasAnyPermission([], []), true);
});
