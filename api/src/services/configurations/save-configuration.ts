import type {
  FieldErrors,
  FileKind,
  ProductConfiguration,
  ProductConfigurationInput as ConfigurationBody,
} from '@portal/contract';
import type { Db, Queryable } from '../../db/driver';
import { configFileErrors, parseJsonFile, schemaErrors } from '../../lib/configuration-files';
import { badRequest, notFound, orNotFound } from '../../lib/http-errors';
import { type AuditActor, createAuditRepository } from '../../repositories/audit-repository';
import { createFileRepository } from '../../repositories/file-repository';
import {
  createProductConfigurationRepository,
  isConfigurationNameTaken,
  type ConfigurationValues,
} from '../../repositories/product-configuration-repository';
import type { Storage } from '../../storage/storage';
import { runUnitOfWork } from '../unit-of-work';

export interface ConfigurationDeps {
  db: Db;
  storage: Storage;
}

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
 * Whether the form's file may be saved with configuration `currentId` (null: a new one): it
 * must be an upload of `kind` that no other configuration uses. A config file newly attached
 * is read and checked against the product's schema here, where the product is known.
 */
async function fileErrors(
  deps: { storage: Storage },
  tx: Queryable,
  kind: Extract<FileKind, 'sim-config' | 'sim-config-translation'>,
  fileId: string,
  currentId: number | null,
  schema: Record<string, unknown>,
): Promise<string[]> {
  // Locked: two saves naming the same upload queue here, and the second finds it taken.
  const file = await createFileRepository(tx).lockUpload(fileId, kind);
  if (!file) return [M.fileMissing];
  const usedBy = await createProductConfigurationRepository(tx).fileUser(fileId);
  if (usedBy !== null && usedBy === currentId) return [];
  if (usedBy !== null || file.state === 'saved') return [M.fileTaken];
  if (file.state !== 'uploaded') return [M.fileUploading];
  if (kind === 'sim-config-translation') return []; // checked in full by its upload
  const opened = await deps.storage.open(file.storageKey);
  if (!opened) return [M.fileMissing];
  const parsed = parseJsonFile(await readAll(opened.stream));
  if (!parsed.ok) return [parsed.message];
  const shape = configFileErrors(parsed.value);
  return shape.length > 0 ? shape : schemaErrors(schema, parsed.value);
}

/**
 * Create (`currentId` null) or replace one configuration of a product, with its files checked and
 * marked saved and an audit entry, in one unit of work; answers it as saved.
 */
export async function saveConfiguration(
  deps: ConfigurationDeps,
  actor: AuditActor,
  body: ConfigurationBody,
  productId: number,
  currentId: number | null,
): Promise<ProductConfiguration> {
  const product = orNotFound(
    await createProductConfigurationRepository(deps.db).product(productId),
  );
  const values = {
    configurationName: body.configurationName.trim(),
    practiceViewCategory: body.practiceViewCategory,
    isSelfAssessment: body.isSelfAssessment ?? true,
    configFile: body.configFile.toLowerCase(),
    translationFile: body.translationFile?.toLowerCase() ?? null,
  };
  return write(deps, actor, values, product, productId, currentId).catch((error: unknown) => {
    // write()'s name check ran before a concurrent save of the same name committed.
    if (isConfigurationNameTaken(error)) throw badRequest({ configurationName: [M.nameTaken] });
    throw error;
  });
}

async function write(
  deps: ConfigurationDeps,
  actor: AuditActor,
  values: ConfigurationValues,
  product: { schema: Record<string, unknown> },
  productId: number,
  currentId: number | null,
): Promise<ProductConfiguration> {
  return runUnitOfWork(deps.db, async (uow) => {
    const tx = uow.q;
    const configurations = createProductConfigurationRepository(tx);
    const files = createFileRepository(tx);
    let before: ProductConfiguration | null = null;
    if (currentId !== null) {
      if (!(await configurations.lock(productId, currentId))) throw notFound();
      before = await configurations.find(productId, currentId);
    }
    const errors: FieldErrors = {};
    if (values.configurationName === '') {
      errors.configurationName = ['This field may not be blank.'];
    } else if (await configurations.nameTaken(productId, values.configurationName, currentId)) {
      errors.configurationName = [M.nameTaken];
    }
    if (!(await configurations.hasPracticeViewCategory(productId, values.practiceViewCategory))) {
      errors.practiceViewCategory = [M.practiceViewCategory];
    }
    const configProblems = await fileErrors(
      deps,
      tx,
      'sim-config',
      values.configFile,
      currentId,
      product.schema,
    );
    if (configProblems.length > 0) errors.configFile = configProblems;
    if (values.translationFile !== null) {
      const problems = await fileErrors(
        deps,
        tx,
        'sim-config-translation',
        values.translationFile,
        currentId,
        product.schema,
      );
      if (problems.length > 0) errors.translationFile = problems;
    }
    if (Object.keys(errors).length > 0) throw badRequest(errors);

    const id = currentId ?? (await configurations.insert(productId, values));
    if (currentId !== null) await configurations.update(currentId, values);
    // docs/requirements.md#file-states: uploaded → saved once the form that uses the file is saved.
    await files.markSaved(values.configFile);
    if (values.translationFile !== null) await files.markSaved(values.translationFile);
    const after = orNotFound(await configurations.find(productId, id));
    await createAuditRepository(tx).record({
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
