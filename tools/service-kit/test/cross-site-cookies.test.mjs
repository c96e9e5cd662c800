import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crossSiteCookieAttributes, keepsCrossSiteCookies } from '../index.mjs';

test('https and the loopback http origins keep SameSite=None; Secure cookies', () => {
  for (const url of [
    'https://portal.example.edu',
    'https://portal.example.edu:8443/api',
    'http://localhost:8080',
    'http://app.localhost:8080',
    'http://127.0.0.1:8180/realms/main',
    'http://127.3.4.5',
    'http://[::1]:3000',
  ]) {
    assert.equal(keepsCrossSiteCookies(url), true, url);
    assert.deepEqual(crossSiteCookieAttributes(url), { secure: true, sameSite: 'none' }, url);
  }
});

test('plain http on any other host keeps Lax (a Secure cookie would be dropped there)', () => {
  for (const url of [
    'http://portal.example.edu',
    'http://192.168.1.10:8080',
    'http://localhost.example.com',
    'http://128.0.0.1',
    'http://10.0.0.1',
  ]) {
    assert.equal(keepsCrossSiteCookies(url), false, url);
    assert.deepEqual(crossSiteCookieAttributes(url), { secure: false, sameSite: 'lax' }, url);
  }
});
