import fp from 'fastify-plugin';
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyError } from 'fastify';
import { INTERNAL_ERROR, NON_FIELD_ERRORS, NOT_FOUND } from '@portal/contract';
import { ApiError } from '../../lib/http-errors';
import { toFieldErrors } from '../../lib/validation-errors';

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({
    useDefaults: true,
    // Unknown body fields are dropped, not refused, as DRF serializers do.
    removeAdditional: true,
    // Report every bad field at once (DRF style). Its cost: every keyword of a field runs even
    // after one failed, e.g. a `pattern` on a string already over its `maxLength`. Bodies are
    // size-limited, string fields carry a maxLength, the patterns are anchored and linear, and
    // the errors sent are capped (validation-errors.ts).
    allErrors: true,
    // Errors carry their schema: an `x-patternMessage` there words the answer (validation-errors.ts).
    verbose: true,
    strict: false,
    ...options,
  });
  addFormats(ajv);
  return ajv;
}

const INVALID_VALUE = 'A value could not be stored or compared (e.g. a NUL character).';

/**
 * PostgreSQL's "data exception" class (SQLSTATE 22xxx): a value from the request that the database
 * cannot hold, such as a NUL character in text or JSON (22021, 22P05) or a number beyond `integer`
 * (22003). Schemas refuse most such values first; this answers the rest as the request's fault
 * (400) instead of a 500. A statement that fails writes nothing.
 */
function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/**
 * Query strings and path params arrive as text and must be coerced ("2" → 2); JSON bodies are
 * typed already, and coercing them would accept `{"language": 12}` as "12".
 */
export const errorsPlugin = fp(
  async (app) => {
    const bodyAjv = createAjv({ coerceTypes: false });
    const textAjv = createAjv({ coerceTypes: 'array' });
    app.setValidatorCompiler(({ schema, httpPart }) =>
      (httpPart === 'body' ? bodyAjv : textAjv).compile(schema),
    );

    app.setNotFoundHandler(async (_request, reply) => reply.code(404).send({ detail: NOT_FOUND }));

    app.setErrorHandler(async (error: FastifyError | ApiError, request, reply) => {
      if (error instanceof ApiError) {
        return reply.code(error.statusCode).send(error.body);
      }
      if (error.validation) {
        return reply.code(400).send(toFieldErrors(error.validation as ErrorObject[]));
      }
      const status = error.statusCode ?? 500;
      if (status === 400 && error.code?.startsWith('FST_ERR_CTP_')) {
        // Body could not be parsed (not JSON, empty JSON body, bad charset).
        return reply.code(400).send({ [NON_FIELD_ERRORS]: [error.message] });
      }
      if (status >= 400 && status < 500) {
        return reply.code(status).send({ detail: error.message });
      }
      if (isDataException(error)) {
        request.log.warn({ err: error }, 'request carried a value the database cannot hold');
        return reply.code(400).send({ [NON_FIELD_ERRORS]: [INVALID_VALUE] });
      }
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ detail: INTERNAL_ERROR });
    });
  },
  { name: 'errors' },
);
