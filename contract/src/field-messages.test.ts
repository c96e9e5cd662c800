import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIELD_MESSAGE_TEMPLATES as T, formatFieldMessage, matchFieldMessage } from './field-messages';

test('a formatted message is matched back to its template and values', () => {
  const message = formatFieldMessage(T.versionTaken, { version: '3.0.0', os: 'windows' });
  assert.equal(message, 'Version 3.0.0 for windows already exists for this product.');
  assert.deepEqual(matchFieldMessage(message), {
    template: T.versionTaken,
    params: { version: '3.0.0', os: 'windows' },
  });
});

test('a JSON path runs to the first ": " and the rest is the nested message', () => {
  assert.deepEqual(matchFieldMessage("/exposure/kv: must have required property 'min'"), {
    template: T.atJsonPath,
    params: { path: '/exposure/kv', detail: "must have required property 'min'" },
  });
  assert.deepEqual(matchFieldMessage("/: must have required property 'kv'")?.params, {
    path: '/',
    detail: "must have required property 'kv'",
  });
});

test('the template with more fixed text wins where several fit', () => {
  assert.deepEqual(matchFieldMessage('must be >= 0'), {
    template: T.comparison,
    params: { comparison: '>=', limit: '0' },
  });
  assert.deepEqual(matchFieldMessage('must be integer'), {
    template: T.type,
    params: { type: 'integer' },
  });
  assert.deepEqual(matchFieldMessage('must be integer or null')?.params, { type: 'integer or null' });
  assert.equal(matchFieldMessage('must be one of: "windows", "mac"')?.template, T.oneOf);
  assert.equal(matchFieldMessage('File is too large. Max file size is 2GB')?.params.size, '2GB');
});

test('other messages match no template', () => {
  assert.equal(matchFieldMessage('This field is required.'), null);
  assert.equal(matchFieldMessage('kv: must be integer'), null);
  assert.equal(matchFieldMessage(''), null);
});
