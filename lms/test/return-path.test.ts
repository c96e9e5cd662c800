import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { safeReturnPath } from '../src/context';
import type { RunningLms } from '../src/index';
import { form, startTestLms, startTestTool, type TestTool } from './support';

/**
 * Where sign-in returns the browser (issue #20 point 9): only the stand-in's own relative paths.
 * Browsers drop tabs and newlines and read `//host` and `/\host` as another host, so each of these
 * would leave the site if it were taken as given.
 */
const LEAVING = [
  '/\t/evil.com',
  '/\n/evil.com',
  '//evil.com',
  '/\\evil.com',
  '/\\/evil.com',
  'https://evil.com',
  'evil.com',
  '/%09/evil.com',
  '/%2F/evil.com',
  '/%5Cevil.com',
  ' /course',
  '',
];

describe('sign-in return paths', () => {
  test('anything that could leave the site becomes /course', () => {
    for (const value of [...LEAVING, undefined, 42, ['/course']]) {
      assert.equal(safeReturnPath(value), '/course', JSON.stringify(value));
    }
  });

  test('the stand-in’s own paths are kept as they are', () => {
    for (const path of [
      '/course',
      '/lti/auth?scope=openid&redirect_uri=http%3A%2F%2Flocalhost%3A8080%2Fapi%2Flti%2Flaunch&state=a-b_c.d~',
      '/d2l/oauth2/auth?response_type=code&scope=core%3A*%3A*&state=xyz',
    ]) {
      assert.equal(safeReturnPath(path), path);
    }
  });

  describe('through the sign-in form', () => {
    let tool: TestTool;
    let lms: RunningLms;
    before(async () => {
      tool = await startTestTool();
      lms = await startTestLms(tool);
    });
    after(async () => {
      await lms.close();
      await tool.close();
    });

    const signIn = (returnPath: string) =>
      fetch(`${lms.url}/login`, { ...form({ user: '102', return: returnPath }), redirect: 'manual' });

    test('a leaving return path sends the signed-in user to /course', async () => {
      for (const value of LEAVING) {
        const res = await signIn(value);
        assert.equal(res.status, 303, JSON.stringify(value));
        assert.equal(res.headers.get('location'), '/course', JSON.stringify(value));
      }
    });

    test('a good return path is where the user lands', async () => {
      const res = await signIn('/d2l/oauth2/auth?state=xyz');
      assert.equal(res.headers.get('location'), '/d2l/oauth2/auth?state=xyz');
    });
  });
});
