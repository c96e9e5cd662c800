import { safeHref, STORAGE_PATH } from '../safe-url';

const origin = window.location.origin;
const signed = `${STORAGE_PATH}sim-installation-file/0b9c?expires=1900000000&name=Setup.exe&sig=abc`;

describe('safeHref', () => {
  it.each([
    [
      'an https address',
      'https://cdn.example/radiography-2.4.0.dmg',
      'https://cdn.example/radiography-2.4.0.dmg',
    ],
    [
      'an https address with a port and query',
      'https://cdn.example:8443/a?b=c#d',
      'https://cdn.example:8443/a?b=c#d',
    ],
    ['upper-case HTTPS, as the browser reads it', 'HTTPS://cdn.example/x', 'https://cdn.example/x'],
    ['a same-origin signed storage URL', signed, `${origin}${signed}`],
    ['an absolute signed storage URL on this origin', `${origin}${signed}`, `${origin}${signed}`],
  ])('lets through %s', (_name, value, expected) => {
    expect(safeHref(value)).toBe(expected);
  });

  it.each([
    ['javascript:', 'javascript:alert(document.domain)'],
    ['upper-case JavaScript:', 'JavaScript:alert(1)'],
    ['javascript: behind white space', ' \tjavascript:alert(1)'],
    ['javascript: with a tab inside', 'java\tscript:alert(1)'],
    ['javascript: with a new line inside', 'java\nscript:alert(1)'],
    ['javascript: after control characters', '\u0001javascript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['file:', 'file:///etc/passwd'],
    ['blob:', `blob:${origin}/0b9c`],
    ['about:', 'about:blank'],
    ['plain http elsewhere', 'http://cdn.example/setup.exe'],
    ['an app scheme', 'vmc-radiography://launch'],
    ['credentials that dress up another host', 'https://trusted.example:pw@attacker.example/x'],
    ['a same-origin page outside storage', '/admin/organisation'],
    ['a same-origin path that climbs out of storage', `${STORAGE_PATH}../../logout`],
    ['an encoded climb out of storage', `${STORAGE_PATH}%2e%2e/%2e%2e/logout`],
    ['another origin on the storage path', `http://attacker.example${signed}`],
    ['a protocol-relative storage path elsewhere', `//attacker.example${signed}`],
    ['an empty string', ''],
    ['white space', '   '],
    ['null', null],
    ['undefined', undefined],
  ])('refuses %s', (_name, value) => {
    expect(safeHref(value)).toBeNull();
  });

  it('takes the storage route only on the configured storage origin', () => {
    const api = 'http://api.example:3000';
    expect(safeHref(`${api}${signed}`, { storageOrigin: api })).toBe(`${api}${signed}`);
    expect(safeHref(signed, { storageOrigin: api })).toBeNull();
  });
});
