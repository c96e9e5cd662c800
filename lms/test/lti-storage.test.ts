import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import vm from 'node:vm';

type Message = Record<string, unknown>;
interface LtiPlatformStorage {
  answer(storage: unknown, toolOrigin: string, origin: string, data: unknown): Message | null;
  createStorage(): unknown;
  KEY_LIMIT: number;
  CHAR_LIMIT: number;
}

const TOOL = 'http://portal.test';

/** The very file the embedded launch page loads, run without a page: only its message logic. */
function load(): LtiPlatformStorage {
  const sandbox: { LtiPlatformStorage?: LtiPlatformStorage } = {};
  vm.runInNewContext(readFileSync(new URL('../assets/lti-storage.js', import.meta.url), 'utf8'), sandbox);
  assert.ok(sandbox.LtiPlatformStorage);
  return sandbox.LtiPlatformStorage;
}

describe('the embedded launch page\'s postMessage storage', () => {
  const lti = load();
  // Plain copies: objects made in the script's context have its prototypes.
  const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as Message | null;

  it('answers lti.capabilities with put and get data in the parent frame', () => {
    const storage = lti.createStorage();
    assert.deepEqual(plain(lti.answer(storage, TOOL, TOOL, { subject: 'lti.capabilities', message_id: 'm-1' })), {
      subject: 'lti.capabilities.response',
      message_id: 'm-1',
      supported_messages: [{ subject: 'lti.capabilities' }, { subject: 'lti.put_data', frame: '_parent' }, { subject: 'lti.get_data', frame: '_parent' }],
    });
    // Brightspace's prefixed subjects get prefixed answers.
    const prefixed = plain(lti.answer(storage, TOOL, TOOL, { subject: 'org.imsglobal.lti.capabilities', message_id: 'm-2' }))!;
    assert.equal(prefixed.subject, 'org.imsglobal.lti.capabilities.response');
    assert.deepEqual((prefixed.supported_messages as Message[]).map((m) => m.subject), ['org.imsglobal.lti.capabilities', 'org.imsglobal.lti.put_data', 'org.imsglobal.lti.get_data']);
  });

  it('keeps what the tool puts and gives it back; no value clears a key', () => {
    const storage = lti.createStorage();
    assert.deepEqual(plain(lti.answer(storage, TOOL, TOOL, { subject: 'lti.put_data', message_id: 'p', key: 'lti_state_abc', value: 'abc' })), {
      subject: 'lti.put_data.response',
      message_id: 'p',
      key: 'lti_state_abc',
      value: 'abc',
    });
    assert.deepEqual(plain(lti.answer(storage, TOOL, TOOL, { subject: 'lti.get_data', message_id: 'g', key: 'lti_state_abc' })), {
      subject: 'lti.get_data.response',
      message_id: 'g',
      key: 'lti_state_abc',
      value: 'abc',
    });
    assert.equal(lti.answer(storage, TOOL, TOOL, { subject: 'lti.get_data', message_id: 'g2', key: 'unknown' })!.value, null);
    assert.deepEqual(plain(lti.answer(storage, TOOL, TOOL, { subject: 'lti.put_data', message_id: 'd', key: 'lti_state_abc' })), { subject: 'lti.put_data.response', message_id: 'd', key: 'lti_state_abc' });
    assert.equal(lti.answer(storage, TOOL, TOOL, { subject: 'lti.get_data', message_id: 'g3', key: 'lti_state_abc' })!.value, null);
  });

  it('ignores every other origin and anything that is not an LTI request', () => {
    const storage = lti.createStorage();
    lti.answer(storage, TOOL, TOOL, { subject: 'lti.put_data', message_id: 'p', key: 'k', value: 'secret' });
    for (const origin of ['http://evil.test', 'http://portal.test:8080', 'https://portal.test', 'null']) {
      assert.equal(lti.answer(storage, TOOL, origin, { subject: 'lti.get_data', message_id: 'g', key: 'k' }), null, origin);
      assert.equal(lti.answer(storage, TOOL, origin, { subject: 'lti.capabilities', message_id: 'c' }), null, origin);
      assert.equal(lti.answer(storage, TOOL, origin, { subject: 'lti.put_data', message_id: 'p', key: 'k', value: 'overwritten' }), null, origin);
    }
    assert.equal(lti.answer(storage, TOOL, TOOL, { subject: 'lti.get_data', message_id: 'g', key: 'k' })!.value, 'secret');
    for (const data of [null, 'lti.capabilities', { subject: 42 }, { subject: 'resize' }, { subject: 'lti.put_data.response', message_id: 'x' }]) {
      assert.equal(lti.answer(storage, TOOL, TOOL, data), null, JSON.stringify(data));
    }
  });

  it('answers malformed requests, unknown subjects and a full store with the spec\'s error codes', () => {
    const storage = lti.createStorage();
    const errorOf = (data: Message) => (lti.answer(storage, TOOL, TOOL, data)!.error as { code: string }).code;
    assert.equal(errorOf({ subject: 'lti.put_data', key: 'k', value: 'v' }), 'bad_request');
    assert.equal(errorOf({ subject: 'lti.put_data', message_id: 'm', value: 'v' }), 'bad_request');
    assert.equal(errorOf({ subject: 'lti.put_data', message_id: 'm', key: 'k', value: { not: 'text' } }), 'bad_request');
    assert.equal(errorOf({ subject: 'lti.get_data', message_id: 'm' }), 'bad_request');
    assert.equal(errorOf({ subject: 'lti.showAlert', message_id: 'm' }), 'unsupported_subject');
    const refused = lti.answer(storage, TOOL, TOOL, { subject: 'lti.put_data', message_id: 'big', key: 'k', value: 'x'.repeat(lti.CHAR_LIMIT) })!;
    assert.equal(refused.subject, 'lti.put_data.response');
    assert.equal(refused.message_id, 'big');
    assert.equal((refused.error as { code: string }).code, 'storage_exhaustion');
    for (let i = 0; i < lti.KEY_LIMIT; i++) {
      assert.equal(lti.answer(storage, TOOL, TOOL, { subject: 'lti.put_data', message_id: `m${i}`, key: `${i}`, value: String(i % 2) })!.error, undefined, `key ${i}`);
    }
    assert.equal(errorOf({ subject: 'lti.put_data', message_id: 'one-more', key: 'one-more', value: 'v' }), 'storage_exhaustion');
    // Replacing a kept key is not a new one.
    assert.equal(lti.answer(storage, TOOL, TOOL, { subject: 'lti.put_data', message_id: 'again', key: '7', value: 'x' })!.error, undefined);
  });
});
