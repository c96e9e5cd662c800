// One log policy for every server of the portal: request lines keep the path, but no session
// token, sign-in code, storage signature or cookie ever reaches a log file. Query strings carry
// those (the launch link's token, Brightspace's code and state, presigned storage URLs), and so do
// the Authorization and Cookie headers.

export const REDACTED = '[redacted]';

/** Query parameters whose values are secrets, compared in lower case. */
const SECRET_PARAMETERS = new Set([
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'id_token_hint',
  'code',
  'state',
  'nonce',
  'client_assertion',
  'registration_token',
  'signature',
  // The API's signed local-storage URLs.
  'sig',
  // The identity provider's set-password link (Keycloak's action token) and device login.
  'key',
  'user_code',
  'code_verifier',
  'client_secret',
  'password',
  'ticket',
  'lti_message_hint',
  'login_hint',
]);

/** Headers whose values are secrets (Node gives header names in lower case). */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-xsrf-token']);

function decodeName(name) {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/** Whether a query parameter's value must not be logged; every `X-Amz-*` one (presigned S3 URLs) too. */
export function isSecretParameter(name) {
  const lower = decodeName(name);
  return SECRET_PARAMETERS.has(lower) || lower.startsWith('x-amz-');
}

/** Whether a header's value must not be logged. */
export function isSecretHeader(name) {
  const lower = name.toLowerCase();
  return SECRET_HEADERS.has(lower) || lower.startsWith('x-amz-');
}

// `name=value` right after `?`, `&` or `;`: a URL's query, also inside a longer text such as
// Fastify's "Route GET:/x?token=… not found".
const QUERY_PAIR = /([?&;])([^=&;#?\s"']+)=([^&;#\s"']*)/g;

/**
 * The text with the values of secret query parameters replaced by `[redacted]`; path, parameter
 * names and every other value stay as they were, so the line still says what was asked.
 */
export function redactUrl(text) {
  if (typeof text !== 'string' || !/[?&;]/.test(text)) return text;
  return text.replace(QUERY_PAIR, (pair, separator, name, value) =>
    value !== '' && isSecretParameter(name) ? `${separator}${name}=${REDACTED}` : pair,
  );
}

/** A copy of the headers with secret values masked and URLs in Referer/Location redacted. */
export function redactHeaders(headers) {
  if (!headers || typeof headers !== 'object') return headers;
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (isSecretHeader(name)) out[name] = REDACTED;
    else if (typeof value === 'string') out[name] = redactUrl(value);
    else out[name] = value;
  }
  return out;
}

/**
 * The request as a log line shows it, for Fastify's `req` serializer (a Fastify request) and for
 * plain Node servers (an IncomingMessage).
 */
export function serializeRequest(req) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host ?? req.headers?.host,
    remoteAddress: req.ip ?? req.socket?.remoteAddress,
    headers: redactHeaders(req.headers),
  };
}

/**
 * Second net for objects logged by hand (`log.info({ headers })`, an HTTP client's error carrying
 * its request): pino's redact masks these paths whatever the serializers did.
 */
const REDACT_PATHS = [
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["set-cookie"]',
  'authorization',
  'cookie',
];

/**
 * pino options (also Fastify's `logger` option) with the portal's redaction: request URLs and
 * headers through `serializeRequest`, secret fields by `redact`, and query parameters inside
 * message texts masked before they are written. `options` are merged in (level, name, stream…).
 */
export function logOptions(options = {}) {
  const { serializers, redact, hooks, ...rest } = options;
  return {
    ...rest,
    serializers: { req: serializeRequest, ...serializers },
    redact: { paths: [...REDACT_PATHS, ...(redact?.paths ?? [])], censor: REDACTED },
    hooks: {
      ...hooks,
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? redactUrl(arg) : arg)),
        );
      },
    },
  };
}

/**
 * A server's `logger` option (Fastify's: false, true or pino options) with the portal's redaction
 * added: false stays off, true or undefined means `defaults`, an object is laid over `defaults`.
 */
export function serverLogOptions(option, defaults = {}) {
  if (option === false) return false;
  return logOptions({ ...defaults, ...(option && typeof option === 'object' ? option : {}) });
}
