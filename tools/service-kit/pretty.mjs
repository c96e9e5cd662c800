// Log lines for a person at a terminal (`npm start`): each JSON line a service writes becomes one
// readable line. Services themselves always write JSON, which is what production collects; only
// the development launcher (scripts/services.mjs) reads it through this. pino-pretty is therefore
// a development dependency, and this module is not part of the package's main entry.
import { prettyFactory } from 'pino-pretty';

/** What a `request completed` line (request-log.mjs) shows in its message instead of raw fields. */
const REQUEST_FIELDS = ['req', 'res', 'responseTime', 'reqId', 'userId', 'organisationId'];

function requestMessage(log, messageKey) {
  const message = log[messageKey] ?? '';
  const parts = [];
  if (log.req && log.res && message === 'request completed') {
    parts.push(`${log.req.method} ${log.req.url} → ${log.res.statusCode} in ${log.responseTime} ms`);
  } else {
    parts.push(String(message));
  }
  if (log.reqId) parts.push(`req=${log.reqId}`);
  if (log.userId) parts.push(`user=${log.userId}`);
  if (log.organisationId !== undefined && log.organisationId !== null) parts.push(`org=${log.organisationId}`);
  return parts.join('  ');
}

/**
 * A function from one line of a child's output to the text to print: a pino JSON line as one
 * line (time, level, message, request id, user, organisation, any other fields inline; an error's
 * stack below it), anything else unchanged.
 *
 * @param {{ colorize?: boolean }} [options]
 * @returns {(line: string) => string}
 */
export function prettyLogLine({ colorize = false } = {}) {
  const prettify = prettyFactory({
    colorize,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    // The launcher prefixes each line with the service's name.
    ignore: ['pid', 'hostname', 'name', ...REQUEST_FIELDS].join(','),
    messageFormat: requestMessage,
  });
  return (line) => {
    if (!line.startsWith('{')) return line;
    let log;
    try {
      log = JSON.parse(line);
    } catch {
      return line;
    }
    if (typeof log !== 'object' || log === null || typeof log.level !== 'number') return line;
    return prettify(log).replace(/\n$/, '');
  };
}
