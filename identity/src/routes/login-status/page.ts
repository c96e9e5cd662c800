import { createHash } from 'node:crypto';

import { html, SafeHtml } from '@portal/service-kit';

import { BROWSER_STATE_COOKIE } from '../../oidc/session-management';

/** What the iframe needs to know; JSON in a data block, so the script itself never changes. */
export interface LoginStatusConfig {
  /** Clients whose `session_state` the iframe checks. */
  clientIds: string[];
  /** Origins allowed to ask (the registered front-end origins). */
  origins: string[];
  /** Path of the browser-state cookie (the realm), for the cookie test. */
  cookiePath: string;
}

/**
 * Session Management 1.0 §3.2, the OP iframe. It answers a "client_id session_state" message
 * with "unchanged", "changed" or "error". It answers "error" when it cannot read its own cookies
 * (third-party cookies blocked, or no Web Crypto): "changed" there would sign the user out every
 * few seconds. The salted hash is the one session-management.ts computes.
 */
const SCRIPT = `(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('login-status-config').textContent);
  function readCookie(name) {
    var parts = document.cookie ? document.cookie.split('; ') : [];
    for (var i = 0; i < parts.length; i += 1) {
      var eq = parts[i].indexOf('=');
      if (parts[i].slice(0, eq) === name) return decodeURIComponent(parts[i].slice(eq + 1));
    }
    return null;
  }
  function cookiesReadable() {
    var probe = 'IDENTITY_COOKIE_PROBE';
    document.cookie = probe + '=1; path=' + config.cookiePath + '; SameSite=Lax';
    var readable = readCookie(probe) === '1';
    document.cookie = probe + '=; path=' + config.cookiePath + '; max-age=0; SameSite=Lax';
    return readable;
  }
  function hex(text) {
    return crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)).then(function (digest) {
      return Array.prototype.map.call(new Uint8Array(digest), function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
    });
  }
  function answer(event) {
    var parts = typeof event.data === 'string' ? event.data.split(' ') : [];
    var dot = parts.length === 2 ? parts[1].lastIndexOf('.') : -1;
    if (dot < 1 || config.clientIds.indexOf(parts[0]) === -1) return Promise.resolve('error');
    if (!window.crypto || !crypto.subtle || !cookiesReadable()) return Promise.resolve('error');
    var state = readCookie(config.cookie);
    if (!state) return Promise.resolve('changed');
    var salt = parts[1].slice(dot + 1);
    return hex(parts[0] + ' ' + event.origin + ' ' + state + ' ' + salt).then(function (digest) {
      return digest + '.' + salt === parts[1] ? 'unchanged' : 'changed';
    });
  }
  window.addEventListener('message', function (event) {
    if (config.origins.indexOf(event.origin) === -1 || !event.source) return;
    answer(event).then(function (status) { event.source.postMessage(status, event.origin); });
  });
})();`;

/** The CSP source of the one script the page runs. */
export const LOGIN_STATUS_SCRIPT_HASH = `'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`;

/** JSON inside <script type="application/json">: `<` escaped so no text can close the element. */
const jsonBlock = (value: unknown): SafeHtml => new SafeHtml(JSON.stringify(value).replace(/</g, '\\u003c'));

export function loginStatusPage(config: LoginStatusConfig): string {
  const data = jsonBlock({ ...config, cookie: BROWSER_STATE_COOKIE });
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Login status</title></head>
<body>
<script type="application/json" id="login-status-config">${data}</script>
<script>${new SafeHtml(SCRIPT)}</script>
</body>
</html>`.toString();
}
