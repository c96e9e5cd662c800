/*
 * The platform side of 1EdTech's "LTI Client Side postMessages" (lti.capabilities, lti.put_data,
 * lti.get_data) for the embedded launch page: a tool in our frame whose cookies the browser
 * blocks keeps its OIDC state and nonce here instead (the login initiation named this window as
 * `lti_storage_target=_parent`). Only the tool's origin, named by the frame's
 * data-lti-storage-origin, is answered; everything else is ignored. Data lives in this page, per
 * origin, and is gone with it.
 *
 * A classic script (CSP script-src 'self', no inline code). The message logic is exposed as
 * `LtiPlatformStorage` so the stand-in's tests run this very file.
 */
(function (root) {
  'use strict';

  // The spec's minimum a platform must offer: 500 keys and 4 kB per origin (Canvas's limits too).
  var KEY_LIMIT = 500;
  var CHAR_LIMIT = 4096;
  var PREFIX = 'org.imsglobal.';
  var SUBJECTS = ['lti.capabilities', 'lti.put_data', 'lti.get_data'];

  function createStorage() {
    return new Map();
  }

  /**
   * The response to one message, or null when it is not for us (another origin, not an LTI
   * request, a response). `storage` maps origin to its key/value Map.
   */
  function answer(storage, toolOrigin, origin, data) {
    if (origin !== toolOrigin) return null;
    if (!data || typeof data !== 'object' || typeof data.subject !== 'string') return null;
    // Brightspace's first implementation prefixed the subjects; it is answered in kind.
    var prefixed = data.subject.indexOf(PREFIX) === 0;
    var subject = prefixed ? data.subject.slice(PREFIX.length) : data.subject;
    if (subject.indexOf('lti.') !== 0 || /\.response$/.test(subject)) return null;

    var messageId = data.message_id;
    var hasId = (typeof messageId === 'string' && messageId !== '') || typeof messageId === 'number';
    function respond(contents) {
      var message = { subject: data.subject + '.response' };
      if (hasId) message.message_id = messageId;
      for (var name in contents) if (Object.prototype.hasOwnProperty.call(contents, name)) message[name] = contents[name];
      return message;
    }
    function error(code, text) {
      return respond({ error: { code: code, message: text } });
    }

    if (SUBJECTS.indexOf(subject) < 0) return error('unsupported_subject', 'Unsupported subject: ' + data.subject);
    if (subject === 'lti.capabilities') {
      return respond({
        supported_messages: [
          { subject: (prefixed ? PREFIX : '') + 'lti.capabilities' },
          // The storage is this window itself: the tool's window.parent.
          { subject: (prefixed ? PREFIX : '') + 'lti.put_data', frame: '_parent' },
          { subject: (prefixed ? PREFIX : '') + 'lti.get_data', frame: '_parent' },
        ],
      });
    }
    if (!hasId) return error('bad_request', "Missing required 'message_id' field");
    var key = data.key;
    if (typeof key !== 'string' || key === '') return error('bad_request', "Missing required 'key' field");

    var stored = storage.get(origin);
    if (!stored) {
      stored = new Map();
      storage.set(origin, stored);
    }
    if (subject === 'lti.get_data') {
      return respond({ key: key, value: stored.has(key) ? stored.get(key) : null });
    }
    // lti.put_data: no value clears the key.
    var value = data.value;
    if (value === undefined || value === null) {
      stored.delete(key);
      return respond({ key: key });
    }
    if (typeof value !== 'string') return error('bad_request', "'value' must be a string");
    var keys = stored.size + (stored.has(key) ? 0 : 1);
    var chars = key.length + value.length;
    stored.forEach(function (v, k) {
      if (k !== key) chars += k.length + v.length;
    });
    if (keys > KEY_LIMIT) return error('storage_exhaustion', 'Reached the limit of ' + KEY_LIMIT + ' keys');
    if (chars > CHAR_LIMIT) return error('storage_exhaustion', 'Reached the limit of ' + CHAR_LIMIT + ' characters');
    stored.set(key, value);
    return respond({ key: key, value: value });
  }

  root.LtiPlatformStorage = { answer: answer, createStorage: createStorage, KEY_LIMIT: KEY_LIMIT, CHAR_LIMIT: CHAR_LIMIT };

  if (typeof document === 'undefined' || typeof root.addEventListener !== 'function') return;
  var frame = document.querySelector('iframe[data-lti-storage-origin]');
  if (!frame) return;
  var toolOrigin = frame.getAttribute('data-lti-storage-origin');
  var storage = createStorage();
  root.addEventListener('message', function (event) {
    var response = answer(storage, toolOrigin, event.origin, event.data);
    if (response && event.source) event.source.postMessage(response, event.origin);
  });
})(typeof window !== 'undefined' ? window : globalThis);
