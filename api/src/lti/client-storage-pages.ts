import { createHash } from 'node:crypto';
import { escapeHtml } from '../lib/escape-html';
import { frameAncestorOrigin } from './frame-origins';

/**
 * The tool's side of 1EdTech "LTI Client Side postMessages" (issue #22 point 2): where the
 * platform names a storage frame at login initiation (`lti_storage_target`), the login's state is
 * kept there too (`lti.put_data`), and a launch whose state cookie did not come back (a frame
 * with third-party cookies blocked) reads it back (`lti.get_data`) before the state counts.
 * Messages go to, and answers are taken only from, the platform's OIDC auth endpoint's origin.
 * Two small pages with one inline script each, allowed by its hash; their data come in data-*
 * attributes, so no value of a request is ever script text.
 */

/** `_parent` or the name of a frame in the platform's page, as the spec allows. */
export const STORAGE_TARGET_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** The key the state is kept under in the platform's storage. */
export const storageKeyOf = (state: string) => `state_${state}`;

/** How long a page waits for the platform's answer before it goes on without it. */
const ANSWER_TIMEOUT_MS = 3000;

// Shared by both scripts: the storage frame, one request, its answer from the platform's origin.
const ASK = `var d=document.getElementById('lti').dataset;
function ask(subject,fields,done){var id=subject+'-'+Math.random().toString(36).slice(2);var over=false;
function finish(answer){if(over)return;over=true;window.removeEventListener('message',listen);done(answer);}
function listen(e){if(e.origin!==d.origin||!e.data||e.data.message_id!==id||e.data.subject!==subject+'.response')return;finish(e.data);}
window.addEventListener('message',listen);setTimeout(function(){finish(null);},${ANSWER_TIMEOUT_MS});
var frame=null;try{frame=d.target==='_parent'?window.parent:window.parent.frames[d.target];}catch(x){}
var message={subject:subject,message_id:id};for(var k in fields)message[k]=fields[k];
if(frame&&frame!==window)frame.postMessage(message,d.origin);else finish(null);}`;

/** Login: put the state, then on to the platform's auth endpoint whatever the answer. */
const PUT_SCRIPT = `${ASK}
ask('lti.put_data',{key:d.key,value:d.state},function(){window.location.replace(d.next);});`;

/** Launch without the state cookie: get the state, hand it to the API with the id_token (JSON, same origin). */
const GET_SCRIPT = `${ASK}
ask('lti.get_data',{key:d.key},function(answer){
var stored=answer&&typeof answer.value==='string'?answer.value:null;
fetch(d.verify,{method:'POST',credentials:'same-origin',headers:{'content-type':'application/json'},
body:JSON.stringify({id_token:d.token,state:d.state,stored_state:stored})})
.then(function(r){return r.json();}).then(function(b){window.location.replace(b.location);})
.catch(function(){document.getElementById('failed').hidden=false;});});`;

const hashOf = (script: string) =>
  `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

const TEXT = {
  en: {
    title: 'Starting the activity…',
    failed: 'The activity could not be started. Open it again from your learning platform.',
  },
  de: {
    title: 'Die Aktivität wird gestartet …',
    failed:
      'Die Aktivität konnte nicht gestartet werden. Öffnen Sie sie erneut in Ihrer Lernplattform.',
  },
} as const;

export interface StoragePlatform {
  issuer: string;
  authLoginUrl: string;
}

/** The platform's pages that may frame ours: its issuer's and auth endpoint's origins. */
function frameAncestorsOf(platform: StoragePlatform, portalUrl: string): string {
  const origins = new Set(
    [platform.issuer, platform.authLoginUrl]
      .map((url) => frameAncestorOrigin(url, portalUrl))
      .filter((o): o is string => o !== null),
  );
  return origins.size > 0 ? [...origins].join(' ') : "'none'";
}

export interface StoragePage {
  csp: string;
  html: string;
}

function page(
  script: string,
  data: Record<string, string>,
  {
    lang,
    platform,
    portalUrl,
  }: { lang: 'en' | 'de'; platform: StoragePlatform; portalUrl: string },
): StoragePage {
  const text = TEXT[lang];
  const attributes = Object.entries(data)
    .map(([name, value]) => `data-${name}="${escapeHtml(value)}"`)
    .join(' ');
  return {
    csp: [
      "default-src 'none'",
      `script-src ${hashOf(script)}`,
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      `frame-ancestors ${frameAncestorsOf(platform, portalUrl)}`,
    ].join('; '),
    html: `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><title>${escapeHtml(text.title)}</title></head>
<body>
<main id="lti" ${attributes}>
<p>${escapeHtml(text.title)}</p>
<p id="failed" role="alert" hidden>${escapeHtml(text.failed)}</p>
</main>
<script>${script}</script>
</body>
</html>
`,
  };
}

/** The platform's origin for postMessage: its OIDC auth endpoint's (the spec's rule). */
const platformOrigin = (platform: StoragePlatform) => new URL(platform.authLoginUrl).origin;

/** Login initiation: keeps the state in the platform's storage frame, then goes on to `next`. */
export function putStatePage(
  options: { lang: 'en' | 'de'; platform: StoragePlatform; portalUrl: string },
  { target, state, next }: { target: string; state: string; next: string },
): StoragePage {
  return page(
    PUT_SCRIPT,
    { target, origin: platformOrigin(options.platform), key: storageKeyOf(state), state, next },
    options,
  );
}

/** The launch's second step: reads the state back and posts it with the id_token to `verify`. */
export function getStatePage(
  options: { lang: 'en' | 'de'; platform: StoragePlatform; portalUrl: string },
  {
    target,
    state,
    idToken,
    verify,
  }: { target: string; state: string; idToken: string; verify: string },
): StoragePage {
  return page(
    GET_SCRIPT,
    {
      target,
      origin: platformOrigin(options.platform),
      key: storageKeyOf(state),
      state,
      token: idToken,
      verify,
    },
    options,
  );
}
