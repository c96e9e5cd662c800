import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  FileDownload,
  FileDownloadParams,
  PERMISSION_DENIED,
  hasAnyPermission,
  type FileKind,
  type Permission,
} from '@portal/contract';
import { forbidden, notFound, orNotFound } from '../../../../lib/http-errors';
import { isGlobalAdmin } from '../../../../lib/object-access';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { configurationUploadRoutes } from './configuration-upload';
import { installerUploadRoutes } from './installer-upload';
import { fileUploadRoutes } from './upload';

/**
 * Administrators' uploads: user CSVs belong to whoever adds users, configuration files to whoever
 * manages simulation configurations. Installers are for entitled users (checked per product).
 */
const ADMIN_KINDS: Readonly<
  Record<Exclude<FileKind, 'sim-installation-file'>, readonly Permission[]>
> = {
  user: ['global.create_user'],
  'sim-config': ['global.manage_sim_config'],
  'sim-config-translation': ['global.manage_sim_config'],
};

const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { files, entitlements } = app.repos;
  await app.register(fileUploadRoutes);
  await app.register(installerUploadRoutes);
  await app.register(configurationUploadRoutes);

  app.get(
    '/:id/download/:kind',
    {
      // Who may download depends on the kind and, for installers, on the file's product.
      config: { permissions: 'authenticated' },
      schema: {
        tags: ['file'],
        summary: 'A short-lived signed URL that downloads the file under its original name',
        params: FileDownloadParams,
        response: { 200: FileDownload, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id, kind } = request.params;

      if (kind === 'sim-installation-file') {
        const file = orNotFound(await files.findOfKind(id, kind));
        if (file.state !== 'saved') throw notFound();
        const manager =
          isGlobalAdmin(user) || user.permissions.includes('global.manage_sim_config');
        if (!manager) {
          // Learners get installers of the versions offered to them, and nothing else exists for them.
          const entitled = new Set(await entitlements.productIdsFor(user));
          const uses = await files.installerUses(file.id);
          if (!uses.some((use) => use.isActive && entitled.has(use.productId))) throw notFound();
        }
        return signed(file);
      }

      if (!hasAnyPermission(user.permissions, ADMIN_KINDS[kind]))
        throw forbidden(PERMISSION_DENIED);
      const file = orNotFound(await files.findOfKind(id, kind));
      // Bytes arrive only once an upload finished.
      if (file.state === 'uploading') throw notFound();
      // A user list names an organisation's people: only that organisation's administrators (and
      // global ones) may read it. Configuration files are global, like the products they belong to.
      if (
        kind === 'user' &&
        !isGlobalAdmin(user) &&
        (user.organisationId === null || file.ownerOrganisationId !== user.organisationId)
      ) {
        throw notFound();
      }
      return signed(file);
    },
  );

  async function signed(file: { storageKey: string; mimeType: string; originalName: string }) {
    return {
      url: await app.storage.signedUrl(file.storageKey, {
        contentType: file.mimeType,
        downloadName: file.originalName,
      }),
      originalName: file.originalName,
    };
  }
};

export default fileRoutes;
