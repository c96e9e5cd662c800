import { sanitizeReturnPath } from '../return-path';

describe('sanitizeReturnPath', () => {
  it.each(['/report/7?tab=1#x', '/', '/lti/launch?launchId=abc'])(
    'keeps the same-origin path %s',
    (path) => {
      expect(sanitizeReturnPath(path)).toBe(path);
    },
  );

  it.each([
    'https://evil.test/',
    '//evil.test/x',
    '/\\evil.test',
    'report',
    '',
    undefined,
    42,
    null,
  ])('replaces %p with / so the login state cannot redirect elsewhere', (value) => {
    expect(sanitizeReturnPath(value)).toBe('/');
  });
});
