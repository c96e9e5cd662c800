import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  LicenseBlock,
  LicenseBlockInput,
  LicenseBlockListQuery,
  LicenseBlockParams,
  LicensedUser,
  LicensedUserListQuery,
  OrganisationIdParams,
  Paged,
} from '@portal/contract';
import { orNotFound } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { createLicenseBlock } from '../../../../services/license-block/create-license-block';
import { updateLicenseBlock } from '../../../../services/license-block/update-license-block';
import { assertOrganisationInScope } from '../../../../services/organisation/organisation-access';

const tags = ['license-block'];

/** Licence blocks of one organisation, under `/api/v1/organisation/{id}/license-block`. */
export const licenseBlockRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { licenses, organisations } = app.repos;

  app.get(
    '/:id/license-block',
    {
      config: { permissions: ['global.view_license_block'] },
      schema: {
        tags,
        summary: "The organisation's licence blocks",
        params: OrganisationIdParams,
        querystring: LicenseBlockListQuery,
        response: { 200: Paged(LicenseBlock), ...errorResponses },
      },
    },
    async (request) => {
      const { id } = request.params;
      assertOrganisationInScope(currentUser(request), id);
      orNotFound(await organisations.find(id));
      return licenses.list({ organisationId: id }, request.query);
    },
  );

  app.post(
    '/:id/license-block',
    {
      config: { permissions: ['global.create_license_block'] },
      schema: {
        tags,
        summary: 'Create a licence block (expiry computed from the duration when left out)',
        params: OrganisationIdParams,
        body: LicenseBlockInput,
        response: { 201: LicenseBlock, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const created = orNotFound(
        await createLicenseBlock(app, currentUser(request), id, request.body),
      );
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/:id/license-block/:licenseId',
    {
      config: { permissions: ['global.view_license_block'] },
      schema: {
        tags,
        summary: 'One licence block',
        params: LicenseBlockParams,
        response: { 200: LicenseBlock, ...errorResponses },
      },
    },
    async (request) => {
      const { id, licenseId } = request.params;
      assertOrganisationInScope(currentUser(request), id);
      return orNotFound(await licenses.find(id, licenseId));
    },
  );

  app.put(
    '/:id/license-block/:licenseId',
    {
      config: { permissions: ['global.update_license_block'] },
      schema: {
        tags,
        summary: 'Update a licence block (start date read-only while its duration is inactive)',
        params: LicenseBlockParams,
        body: LicenseBlockInput,
        response: { 200: LicenseBlock, ...errorResponses },
      },
    },
    async (request) => {
      const { id, licenseId } = request.params;
      return orNotFound(
        await updateLicenseBlock(app, currentUser(request), id, licenseId, request.body),
      );
    },
  );

  app.get(
    '/:id/license-block/:licenseId/user',
    {
      config: { permissions: ['global.view_license_block'] },
      schema: {
        tags,
        summary: 'The users holding a seat of the licence block',
        params: LicenseBlockParams,
        querystring: LicensedUserListQuery,
        response: { 200: Paged(LicensedUser), ...errorResponses },
      },
    },
    async (request) => {
      const { id, licenseId } = request.params;
      assertOrganisationInScope(currentUser(request), id);
      return orNotFound(await licenses.listUsers(id, licenseId, request.query));
    },
  );
};

export default licenseBlockRoutes;
