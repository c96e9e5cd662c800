import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import {
  FIELD_MESSAGE_TEMPLATES,
  ProductConfigurationSchema,
  ProductConfigurationSchemaInput,
  ProductParams,
  formatFieldMessage,
} from '@portal/contract';
import type { Queryable } from '../../../../db/driver';
import { MAX_FILE_MESSAGES } from '../../../../lib/configuration-files';
import { badRequest, orNotFound } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { recordAudit } from '../../../../repositories/audit-repository';

const tags = ['product-configuration'];

/** Deeper than any real schema; ajv compiles recursively, so this bounds its stack. */
const MAX_SCHEMA_DEPTH = 64;
export const SCHEMA_TOO_DEEP = `The schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep.`;

function depthOf(value: unknown): number {
  let deepest = 0;
  // Iterative: a hostile document must not exhaust the call stack here either.
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_SCHEMA_DEPTH) return deepest;
    for (const child of Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  return deepest;
}

/**
 * What is wrong with `schema` as a product's configuration schema, as the configuration save
 * will use it (configuration-files.ts: ajv with formats, not strict): first against the JSON
 * Schema meta-schema (messages name the JSON path), then whether ajv can compile it (e.g. a `$ref`
 * to nowhere).
 */
export function configurationSchemaErrors(schema: Record<string, unknown>): string[] {
  if (depthOf(schema) > MAX_SCHEMA_DEPTH) return [SCHEMA_TOO_DEEP];
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  if (!ajv.validateSchema(schema)) {
    return (ajv.errors ?? [])
      .slice(0, MAX_FILE_MESSAGES)
      .map((e) =>
        formatFieldMessage(FIELD_MESSAGE_TEMPLATES.atJsonPath, {
          path: e.instancePath || '/',
          detail: e.message ?? 'is invalid',
        }),
      );
  }
  try {
    ajv.compile(schema);
    return [];
  } catch (error) {
    return [
      formatFieldMessage(FIELD_MESSAGE_TEMPLATES.schemaUnusable, { reason: (error as Error).message }),
    ];
  }
}

/**
 * A product's configuration JSON Schema, under `/api/v1/product/{id}/configuration-schema`:
 * global administrators read and replace it (`global.manage_validation_schema`). Products are
 * global: no organisation scope; an unknown product is 404. Configurations saved before keep
 * their files; the new schema applies to the next save.
 */
export const productConfigurationSchemaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  const read = async (productId: number, tx: Queryable = db) => {
    const res = await tx.query<{ id: number; configuration_schema: Record<string, unknown> }>(
      'select id, configuration_schema from products where id = $1',
      [productId],
    );
    const row = res.rows[0];
    return row ? { product: row.id, schema: row.configuration_schema } : null;
  };

  app.get(
    '/:id/configuration-schema',
    {
      config: { permissions: ['global.manage_validation_schema'] },
      schema: {
        tags,
        summary: "The product's configuration JSON Schema",
        params: ProductParams,
        response: { 200: ProductConfigurationSchema, ...errorResponses },
      },
    },
    async (request) => orNotFound(await read(request.params.id)),
  );

  app.put(
    '/:id/configuration-schema',
    {
      config: { permissions: ['global.manage_validation_schema'] },
      schema: {
        tags,
        summary: "Replace the product's configuration JSON Schema",
        description:
          'The schema must be a JSON Schema (draft-07 meta-schema) that ajv can compile (400 on ' +
          '`schema`, each message starting with the JSON path). Audited (entity `product`).',
        params: ProductParams,
        body: ProductConfigurationSchemaInput,
        response: { 200: ProductConfigurationSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { schema } = request.body;
      const actor = currentUser(request);
      return db.transaction(async (tx) => {
        // Locked first: two saves of the same product audit before → after in order.
        const before = orNotFound(
          (
            await tx.query<{ id: number; configuration_schema: Record<string, unknown> }>(
              'select id, configuration_schema from products where id = $1 for update',
              [id],
            )
          ).rows.map((r) => ({ product: r.id, schema: r.configuration_schema }))[0] ?? null,
        );
        const problems = configurationSchemaErrors(schema);
        if (problems.length > 0) throw badRequest({ schema: problems });
        await tx.query('update products set configuration_schema = $2::jsonb where id = $1', [
          id,
          JSON.stringify(schema),
        ]);
        const after = orNotFound(await read(id, tx));
        await recordAudit(tx, {
          actor,
          action: 'update',
          entityType: 'product',
          entityId: id,
          organisationId: null,
          before: { configurationSchema: before.schema },
          after: { configurationSchema: after.schema },
        });
        return after;
      });
    },
  );
};
