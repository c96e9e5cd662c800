import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { setPasswordPage } from '../src/routes/set-password/page';

describe('set-password page', () => {
  it('names the account for password managers with a real, hidden username field', () => {
    const html = setPasswordPage({ nonce: 'n', productName: 'Simulation Portal' }, { action: '/a', key: 'k', csrf: 'c', email: 'new.learner@example.test' });
    // Chromium ignores type="hidden" here ("Password forms should have (optionally hidden)
    // username fields"), so the new password would be saved without its e-mail address.
    const username = /<input[^>]*autocomplete="username"[^>]*>/.exec(html)?.[0];
    assert.ok(username, 'a username field');
    assert.doesNotMatch(username, /type="hidden"/);
    assert.match(username, /type="email"/);
    assert.match(username, /value="new\.learner@example\.test"/);
    assert.match(username, /\shidden[\s>]/, 'not shown: the page names the address already');
    assert.match(username, /\sreadonly[\s>]/);
  });
});
