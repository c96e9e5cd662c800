import assert from 'node:assert/strict';
import { test } from 'node:test';
import { html, SafeHtml } from '../index.mjs';

test('html escapes every interpolated value but SafeHtml, and drops null, undefined and false', () => {
  const name = `<script>alert("x")</script> & 'y'`;
  const page = html`<p>${name}</p>${html`<b>${1}</b>`}${null}${undefined}${false}${['<', html`<i></i>`]}`;
  assert.ok(page instanceof SafeHtml);
  assert.equal(
    String(page),
    '<p>&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;y&#39;</p><b>1</b>&#60;<i></i>',
  );
});
