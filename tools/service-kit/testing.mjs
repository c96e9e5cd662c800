// Test helpers for the portal's log policy, shared by every server's log tests so that each
// service is checked with the same secrets.
import { Writable } from 'node:stream';

/**
 * A request carrying every kind of secret the log policy masks: each value is unique, so a test
 * can search the written lines for it.
 */
export function secretRequest(path = '/healthz') {
  const secrets = {
    token: 'tok-6f1d2c',
    code: 'code-81ab3e',
    state: 'state-5c77a0',
    id_token: 'idt-2b9e44',
    client_assertion: 'ca-90d1f7',
    registration_token: 'rt-4a6c12',
    'X-Amz-Signature': 'amzsig-77e0c9',
    'x-amz-credential': 'amzcred-31f5b8',
    Signature: 'sig-c0ffee',
  };
  const headerSecrets = {
    authorization: 'Bearer hdr-auth-5e8d21',
    cookie: 'portal_session=hdr-cookie-1a2b3c',
  };
  const query = new URLSearchParams({ page: '2', ...secrets }).toString();
  return {
    path,
    url: `${path}?${query}`,
    headers: headerSecrets,
    /** Every value that must not appear in a log line. */
    values: [...Object.values(secrets), 'hdr-auth-5e8d21', 'hdr-cookie-1a2b3c'],
  };
}

/** A writable stream for pino's `stream` option that keeps every line written. */
export function captureLog() {
  const chunks = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    stream,
    /** The text written so far. */
    text: () => chunks.join(''),
    /** The JSON lines written so far. */
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
  };
}
