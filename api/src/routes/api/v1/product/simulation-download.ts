import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Paged,
  PERMISSION_DENIED,
  ProductParams,
  SimulationDownload,
  SimulationDownloadInput,
  SimulationDownloadListQuery,
  SimulationDownloadParams,
} from '@portal/contract';
import { forbidden, notFound, orNotFound } from '../../../../lib/http-errors';
import { isGlobalAdmin } from '../../../../lib/object-access';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import type { AuthUser } from '../../../../repositories/user-repository';
import {
  createSimulationDownload,
  updateSimulationDownload,
} from '../../../../services/downloads/save-simulation-download';

const tags = ['simulation-download'];

/**
 * Installer versions of a product, under `/api/v1/product/{id}/simulation-download`. docs/requirements.md#permissions:
 * downloads use the user permissions. A version is offered to every organisation entitled to the
 * product, so only global administrators change them; an organisation's administrators read
 * those of the products their organisation is licensed for, and 404 for any other.
 */
export const productSimulationDownloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { simulationDownloads, entitlements } = app.repos;

  async function assertReadable(user: AuthUser, productId: number) {
    if (isGlobalAdmin(user)) {
      if (!(await simulationDownloads.productExists(productId))) throw notFound();
      return;
    }
    if (!(await entitlements.productIdsFor(user)).includes(productId)) throw notFound();
  }

  async function assertWritable(user: AuthUser, productId: number) {
    await assertReadable(user, productId);
    if (!isGlobalAdmin(user)) throw forbidden(PERMISSION_DENIED);
  }

  app.get(
    '/:id/simulation-download',
    {
      config: { permissions: ['global.view_user'] },
      schema: {
        tags,
        summary: "The product's installer versions (default ordering -isActive, newest first)",
        params: ProductParams,
        querystring: SimulationDownloadListQuery,
        response: { 200: Paged(SimulationDownload), ...errorResponses },
      },
    },
    async (request) => {
      await assertReadable(currentUser(request), request.params.id);
      return simulationDownloads.list(request.params.id, request.query);
    },
  );

  app.post(
    '/:id/simulation-download',
    {
      config: { permissions: ['global.create_user'] },
      schema: {
        tags,
        summary: 'Add an installer version (global administrators)',
        description:
          '`version` major.minor.patch, unique per product and operating system; `fileUrl` ' +
          'https only; `fileId` an upload of kind sim-installation-file (then `saved`); ' +
          '`isActive` defaults to true. Audited.',
        params: ProductParams,
        body: SimulationDownloadInput,
        response: { 201: SimulationDownload, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await assertWritable(user, request.params.id);
      const created = orNotFound(
        await createSimulationDownload(app, request.params.id, request.body, user),
      );
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/:id/simulation-download/:downloadId',
    {
      config: { permissions: ['global.view_user'] },
      schema: {
        tags,
        summary: 'One installer version',
        params: SimulationDownloadParams,
        response: { 200: SimulationDownload, ...errorResponses },
      },
    },
    async (request) => {
      const { id, downloadId } = request.params;
      await assertReadable(currentUser(request), id);
      return orNotFound(await simulationDownloads.find(id, downloadId));
    },
  );

  app.put(
    '/:id/simulation-download/:downloadId',
    {
      config: { permissions: ['global.update_user'] },
      schema: {
        tags,
        summary: 'Change an installer version, e.g. deactivate it (global administrators)',
        params: SimulationDownloadParams,
        body: SimulationDownloadInput,
        response: { 200: SimulationDownload, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id, downloadId } = request.params;
      await assertWritable(user, id);
      return orNotFound(await updateSimulationDownload(app, id, downloadId, request.body, user));
    },
  );
};
