import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { memberOf } from '../../src/lti/nrps-members';
import { membershipsUrlOf } from '../../src/lti/nrps-course';
import { PlatformCallError } from '../../src/lti/platform-token';
import { memberName, syncErrorOf } from '../../src/services/lti/roster-sync-run';

describe('NRPS claim and members', () => {
  test('a roster is offered only by a 2.0 claim with an http(s) memberships URL', () => {
    const url = 'https://lms.test/nrps/contexts/c1/memberships';
    const claim = (u: unknown, versions: unknown = ['2.0']) => ({
      context_memberships_url: u,
      service_versions: versions,
    });
    assert.equal(membershipsUrlOf(claim(url)), url);
    assert.equal(membershipsUrlOf(claim(url, ['1.0'])), null);
    assert.equal(membershipsUrlOf({ context_memberships_url: url }), null);
    assert.equal(membershipsUrlOf(claim('javascript:alert(1)')), null);
    assert.equal(membershipsUrlOf(claim('file:///etc/passwd')), null);
    assert.equal(membershipsUrlOf(claim(42)), null);
    assert.equal(membershipsUrlOf(null), null);
  });

  test('members: status Active when absent, only string roles, no member without user_id', () => {
    assert.deepEqual(memberOf({ user_id: '7', roles: ['Learner', 3], email: ' a@b.test ' }), {
      userId: '7',
      status: 'Active',
      roles: ['Learner'],
      name: null,
      givenName: null,
      familyName: null,
      email: 'a@b.test',
    });
    assert.equal(memberOf({ user_id: '7', status: 'Deleted' })?.status, 'Deleted');
    assert.equal(memberOf({ user_id: '7', status: 'whatever' })?.status, 'Active');
    assert.equal(memberOf({ name: 'No Id' }), null);
    assert.equal(memberOf({ user_id: '' }), null);
    assert.equal(memberOf({ user_id: 'x'.repeat(256) }), null);
    assert.equal(memberOf('member'), null);
  });

  test('refused members are named as the platform names them, else by their id', () => {
    const none = {
      userId: '9',
      status: 'Active' as const,
      roles: [],
      name: null,
      givenName: null,
      familyName: null,
      email: null,
    };
    assert.equal(memberName({ ...none, name: 'Ada L' }), 'Ada L');
    assert.equal(memberName({ ...none, givenName: 'Ada', familyName: 'Lovelace' }), 'Ada Lovelace');
    assert.equal(memberName({ ...none, email: 'ada@lms.test' }), 'ada@lms.test');
    assert.equal(memberName(none), 'user 9');
  });

  test('a failed sync says what failed in a sentence, with the step and status', () => {
    const failed = (
      step: string,
      code: 'HTTP_STATUS' | 'OUTBOUND_BLOCKED_HOST' | 'INVALID_ANSWER',
      status: number | null,
    ) => syncErrorOf(new PlatformCallError(step, code, status, true));
    assert.equal(
      failed('access token', 'HTTP_STATUS', 400),
      'The learning platform refused an access token for the roster (access token: HTTP_STATUS (HTTP 400)).',
    );
    assert.match(
      failed('memberships', 'HTTP_STATUS', 503),
      /^The learning platform is not available/,
    );
    assert.match(
      failed('memberships', 'OUTBOUND_BLOCKED_HOST', null),
      /not one the portal may call/,
    );
    assert.match(failed('memberships', 'HTTP_STATUS', 404), /refused the roster/);
    assert.match(failed('memberships', 'INVALID_ANSWER', 200), /was not a roster/);
    assert.equal(syncErrorOf(new Error('boom')), 'The roster sync stopped on an internal error.');
  });
});
