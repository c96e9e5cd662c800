import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Paged,
  ProductConfiguration,
  ProductConfigurationInput,
  ProductConfigurationListQuery,
  ProductConfigurationParams,
  ProductParams,
  type FieldErrors,
  type FileKind,
  type ProductConfigurationInput as ConfigurationBody,
} from '@portal/contract';
import type { Queryable } from '../../../../db/driver';
import { configFileErrors, parseJsonFile, schemaErrors } from '../../../../lib/configuration-files';
import { badRequest, notFound, orNotFound } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { recordAudit, type AuditActor } from '../../../../repositories/audit-repository';
import {
  isConfigurationNameTaken,
  type ConfigurationValues,
} from '../../../../repositories/product-configuration-repository';

const tags = ['product-configuration'];

export const CONFIGURATION_MESSAGES = {
  nameTaken: 'This product already has a configuration with this name.',
  practiceViewCategory: 'Select a valid choice. That choice is not one of the available choices.',
  fileMissing: 'The file was not found. Upload it again.',
  fileUploading: 'The file has not finished uploading. Upload it again.',
  fileTaken: 'This file was saved with another configuration. Upload it again for this one.',
} as const;
const M = CONFIGURATION_MESSAGES;

async function readAll(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * Product configurations (spec §3, §7), under `/api/v1/product/{id}/configuration`: global
 * administrators' product management (`global.manage_sim_config`). Products are global, so there
 * is no organisation scope; an unknown product or another product's configuration is 404.
 */
export const productConfigurationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { configurations, files } = app.repos;

  /**
   * Whether the form's file may be saved with configuration `currentId` (null: a new one): it
   * must be an upload of `kind` that no other configuration uses. A config file newly attached
   * is read and checked against the product's schema here, where the product is known.
   */
  async function fileErrors(
    tx: Queryable,
    kind: Extract<FileKind, 'sim-config' | 'sim-config-translation'>,
    fileId: string,
    currentId: number | null,
    schema: Record<string, unknown>,
  ): Promise<string[]> {
    // Locked: two saves naming the same upload queue here, and the second finds it taken.
    const file = await files.lockUpload(tx, fileId, kind);
    if (!file) return [M.fileMissing];
    const usedBy = await configurations.fileUser(tx, fileId);
    if (usedBy !== null && usedBy === currentId) return [];
    if (usedBy !== null || file.state === 'saved') return [M.fileTaken];
    if (file.state !== 'uploaded') return [M.fileUploading];
    if (kind === 'sim-config-translation') return []; // checked in full by its upload
    const opened = await app.storage.open(file.storageKey);
    if (!opened) return [M.fileMissing];
    const parsed = parseJsonFile(await readAll(opened.stream));
    if (!parsed.ok) return [parsed.message];
    const shape = configFileErrors(parsed.value);
    return shape.length > 0 ? shape : schemaErrors(schema, parsed.value);
  }

  /** Create (`currentId` null) or replace one configuration; answers it as saved. */
  async function save(
    actor: AuditActor,
    body: ConfigurationBody,
    productId: number,
    currentId: number | null,
  ): Promise<ProductConfiguration> {
    const product = orNotFound(await configurations.product(productId));
    const values = {
      configurationName: body.configurationName.trim(),
      practiceViewCategory: body.practiceViewCategory,
      isSelfAssessment: body.isSelfAssessment ?? true,
      configFile: body.configFile.toLowerCase(),
      translationFile: body.translationFile?.toLowerCase() ?? null,
    };
    return write(actor, values, product, productId, currentId).catch((error: unknown) => {
      // write()'s name check ran before a concurrent save of the same name committed.
      if (isConfigurationNameTaken(error)) throw badRequest({ configurationName: [M.nameTaken] });
      throw error;
    });
  }

  async function write(
    actor: AuditActor,
    values: ConfigurationValues,
    product: { schema: Record<string, unknown> },
    productId: number,
    currentId: number | null,
  ): Promise<ProductConfiguration> {
    return app.db.transaction(async (tx) => {
      let before: ProductConfiguration | null = null;
      if (currentId !== null) {
        if (!(await configurations.lock(tx, productId, currentId))) throw notFound();
        before = await configurations.find(productId, currentId, tx);
      }
      const errors: FieldErrors = {};
      if (values.configurationName === '') {
        errors.configurationName = ['This field may not be blank.'];
      } else if (
        await configurations.nameTaken(tx, productId, values.configurationName, currentId)
      ) {
        errors.configurationName = [M.nameTaken];
      }
      if (
        !(await configurations.hasPracticeViewCategory(productId, values.practiceViewCategory, tx))
      ) {
        errors.practiceViewCategory = [M.practiceViewCategory];
      }
      const configProblems = await fileErrors(
        tx,
        'sim-config',
        values.configFile,
        currentId,
        product.schema,
      );
      if (configProblems.length > 0) errors.configFile = configProblems;
      if (values.translationFile !== null) {
        const problems = await fileErrors(
          tx,
          'sim-config-translation',
          values.translationFile,
          currentId,
          product.schema,
        );
        if (problems.length > 0) errors.translationFile = problems;
      }
      if (Object.keys(errors).length > 0) throw badRequest(errors);

      const id = currentId ?? (await configurations.insert(tx, productId, values));
      if (currentId !== null) await configurations.update(tx, currentId, values);
      // Spec §4: uploaded → saved once the form that uses the file is saved.
      await files.markSaved(tx, values.configFile);
      if (values.translationFile !== null) await files.markSaved(tx, values.translationFile);
      const after = orNotFound(await configurations.find(productId, id, tx));
      await recordAudit(tx, {
        actor,
        action: currentId === null ? 'create' : 'update',
        entityType: 'product_configuration',
        entityId: id,
        organisationId: null,
        before,
        after,
      });
      return after;
    });
  }

  app.get(
    '/:id/configuration',
    {
      config: { permissions: ['global.manage_sim_config'] },
      schema: {
        tags,
        summary: "The product's configurations (paged; filter: name; default ordering name)",
        params: ProductParams,
        querystring: ProductConfigurationListQuery,
        response: { 200: Paged(ProductConfiguration), ...errorResponses },
      },
    },
    async (request) => {
      const { id } = request.params;
      orNotFound(await configurations.product(id));
      return configurations.list(id, request.query);
    },
  );

  app.post(
    '/:id/configuration',
    {
      config: { permissions: ['global.manage_sim_config'] },
      schema: {
        tags,
        summary: 'Create a configuration from uploaded files',
        description:
          "The config file is checked against the product's configuration schema here (400 on " +
          '`configFile`, each message starting with the JSON path); both files become `saved`.',
        params: ProductParams,
        body: ProductConfigurationInput,
        response: { 201: ProductConfiguration, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await save(currentUser(request), request.body, request.params.id, null)),
  );

  app.get(
    '/:id/configuration/:configurationId',
    {
      config: { permissions: ['global.manage_sim_config'] },
      schema: {
        tags,
        summary: 'One configuration of the product',
        params: ProductConfigurationParams,
        response: { 200: ProductConfiguration, ...errorResponses },
      },
    },
    async (request) => {
      const { id, configurationId } = request.params;
      return orNotFound(await configurations.find(id, configurationId));
    },
  );

  app.put(
    '/:id/configuration/:configurationId',
    {
      config: { permissions: ['global.manage_sim_config'] },
      schema: {
        tags,
        summary: 'Replace a configuration (a new config file is checked against the schema)',
        params: ProductConfigurationParams,
        body: ProductConfigurationInput,
        response: { 200: ProductConfiguration, ...errorResponses },
      },
    },
    async (request) =>
      save(currentUser(request), request.body, request.params.id, request.params.configurationId),
  );
};
