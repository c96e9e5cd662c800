import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FieldErrors, UploadedFile } from '@portal/contract';
import {
  configFileErrors,
  parseJsonFile,
  translationErrors,
} from '../../../../lib/configuration-files';
import { badRequest, fieldError } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { FILE_EMPTY, fileTypeInvalid } from '../../../../lib/upload-rules';
import { currentUser } from '../../../../plugins/app/auth';
import { storeUpload } from '../../../../services/files/store-upload';
import { readUploadedFile } from './upload';

/** docs/requirements.md#file-rules: configuration files are JSON. */
export const CONFIGURATION_FILE_EXTENSIONS = ['json'] as const;
/** What browsers declare for a .json: most say application/json, some nothing specific. */
export const CONFIGURATION_FILE_TYPES = [
  'application/json',
  'text/json',
  'text/plain',
  'application/octet-stream',
] as const;

type ConfigurationFileKind = 'sim-config' | 'sim-config-translation';

const KINDS: Readonly<
  Record<
    ConfigurationFileKind,
    { summary: string; description: string; check: (v: unknown) => string[] }
  >
> = {
  'sim-config': {
    summary: "Upload a product configuration's config file (multipart: file)",
    description:
      'docs/requirements.md#file-rules, then UTF-8 JSON holding an object. The product is not known here: ' +
      "the file is checked against the product's configuration schema when a configuration " +
      'that uses it is saved (400 on `configFile`, each message starting with the JSON path). ' +
      'State `uploaded`, then `saved` with the configuration.',
    check: configFileErrors,
  },
  'sim-config-translation': {
    summary: "Upload a product configuration's translation file (multipart: file)",
    description:
      'docs/requirements.md#file-rules, then UTF-8 JSON: an object whose values are strings or objects of ' +
      'strings (e.g. `{"de": {"title": "Knie"}}`); a message per bad value names its JSON path. ' +
      'State `uploaded`, then `saved` with the configuration.',
    check: translationErrors,
  },
};

/**
 * POST /api/v1/file/upload/sim-config and …/sim-config-translation: the files of the product
 * configuration form, for those who manage simulation configurations.
 */
export const configurationUploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Forms are accepted in this scope only, as in the users upload's scope.
  await app.register(multipart, { throwFileSizeLimit: false });

  for (const [kind, spec] of Object.entries(KINDS) as Array<
    [ConfigurationFileKind, (typeof KINDS)[ConfigurationFileKind]]
  >) {
    app.post(
      `/upload/${kind}`,
      {
        config: { permissions: ['global.manage_sim_config'] },
        schema: {
          tags: ['file'],
          summary: spec.summary,
          description: spec.description,
          consumes: ['multipart/form-data'],
          response: { 201: UploadedFile, ...errorResponses, 413: FieldErrors },
        },
      },
      async (request, reply) => {
        const actor = currentUser(request);
        const file = await readUploadedFile(request, CONFIGURATION_FILE_EXTENSIONS);
        const declared = file.declaredType.split(';')[0]?.trim().toLowerCase() ?? '';
        // The declared type alone is no evidence: a page under a .json name is no JSON file.
        if (
          !(CONFIGURATION_FILE_TYPES as readonly string[]).includes(declared) ||
          /^\s*</.test(file.data.subarray(0, 1024).toString('utf8'))
        ) {
          throw fieldError('file', fileTypeInvalid(['application/json']));
        }
        if (file.data.length === 0) throw fieldError('file', FILE_EMPTY);
        const parsed = parseJsonFile(file.data);
        if (!parsed.ok) throw fieldError('file', parsed.message);
        const problems = spec.check(parsed.value);
        if (problems.length > 0) throw badRequest({ file: problems });

        const id = randomUUID();
        const stored = {
          id,
          kind,
          originalName: file.fileName,
          mimeType: 'application/json',
          size: file.data.length,
          storageKey: `${kind}/${id}.json`,
          ownerId: actor.id,
        };
        return reply
          .code(201)
          .send(await storeUpload(app, stored, file.data, actor, 'application/json'));
      },
    );
  }
};
