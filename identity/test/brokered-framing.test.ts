import assert from 'node:assert/strict';
import { test } from 'node:test';

import { isBrokeredSignInPage, isSessionCheckPage, withFrameAncestors } from '../src/http/brokered-framing';

const logins = { tried: (uid: string) => uid === 'brokered-uid' };

test('only the broker endpoint and the interaction page of a brokered interaction are pages of a brokered sign-in', () => {
  const page = (url: string) => isBrokeredSignInPage('/realms/main', logins, url);
  assert.equal(page('/realms/main/broker/lti/endpoint?code=x&state=y'), true);
  assert.equal(page('/realms/main/interaction/brokered-uid'), true);
  assert.equal(page('/realms/main/interaction/other-uid'), false, 'a password sign-in');
  assert.equal(page('/realms/main/interaction/brokered-uid/login'), false, 'the form post');
  assert.equal(page('/realms/main/device'), false);
  assert.equal(page('/realms/main/login-actions/action-token?key=k'), false);
  assert.equal(page('/realms/other/broker/lti/endpoint'), false);
  assert.equal(page('/broker/lti/endpoint'), false);
});

test('withFrameAncestors adds origins to the directive, replaces a lone none and leaves the rest', () => {
  assert.equal(
    withFrameAncestors("default-src 'none';frame-ancestors 'self' http://localhost:8080;base-uri 'none'", ['https://lms.example.edu']),
    "default-src 'none';frame-ancestors 'self' http://localhost:8080 https://lms.example.edu;base-uri 'none'",
  );
  assert.equal(withFrameAncestors("frame-ancestors 'none'", ['https://lms.example.edu']), 'frame-ancestors https://lms.example.edu');
  assert.equal(withFrameAncestors("default-src 'none'", ['https://lms.example.edu']), "default-src 'none'");
});

test('the session check of the realm is the only other page the platforms may frame', () => {
  const page = (url: string) => isSessionCheckPage('/realms/main', url);
  assert.equal(page('/realms/main/protocol/openid-connect/login-status-iframe.html'), true);
  assert.equal(page('/realms/main/protocol/openid-connect/login-status-iframe.html?version=1'), true);
  assert.equal(page('/realms/other/protocol/openid-connect/login-status-iframe.html'), false);
  assert.equal(page('/realms/main/protocol/openid-connect/login-status-iframe.htmlx'), false);
  assert.equal(page('/realms/main/protocol/openid-connect/auth'), false);
});
