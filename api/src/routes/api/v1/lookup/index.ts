import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  hasAnyPermission,
  LookupList,
  LookupQuery,
  type LookupItem,
  type Permission,
} from '@portal/contract';
import { fieldError, notFound, orNotFound } from '../../../../lib/http-errors';
import { isGlobalAdmin } from '../../../../lib/object-access';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { STATIC_LOOKUP_FIELDS, type StaticLookupField } from '../../../../reference/reference-data';

const isStatic = (field: string): field is StaticLookupField =>
  (STATIC_LOOKUP_FIELDS as readonly string[]).includes(field);

const ORGANISATION_LICENSES_PERMISSIONS: readonly Permission[] = [
  'global.create_user',
  'global.view_license_block',
];

export const lookupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { configurations, lookups } = app.repos;

  app.get(
    '',
    {
      config: { permissions: 'authenticated' },
      schema: {
        tags: ['lookup'],
        summary: 'Choices for one form field',
        querystring: LookupQuery,
        response: { 200: LookupList, ...errorResponses },
      },
    },
    async (request): Promise<LookupItem[]> => {
      const { field, organisation, product_id: productId } = request.query;
      const user = currentUser(request);
      if (isStatic(field)) return lookups.listStatic(field);
      switch (field) {
        case 'roles':
          return lookups.listRoles();
        case 'organisation':
          // Organisation names are client data: only global administrators see them all.
          if (isGlobalAdmin(user)) return lookups.listOrganisations();
          return user.organisationId === null ? [] : lookups.listOrganisations(user.organisationId);
        case 'organisation_licenses':
          if (organisation === undefined)
            throw fieldError('organisation', 'This field is required.');
          // The bulk user add picks a licence from it: only those who may add users or see
          // licences, and only of their own organisation (global administrators: any), else 404
          // as for every other organisation object.
          if (!hasAnyPermission(user.permissions, ORGANISATION_LICENSES_PERMISSIONS)) {
            throw notFound();
          }
          if (!isGlobalAdmin(user) && user.organisationId !== organisation) throw notFound();
          return lookups.listOrganisationLicenses(organisation);
        case 'practice_view_category':
          if (productId === undefined) throw fieldError('product_id', 'This field is required.');
          // Products are global (the `product` lookup lists them all), and so are their categories.
          orNotFound(await configurations.product(productId));
          return configurations.practiceViewCategories(productId);
        case 'entitlement':
          return lookups.listEntitlements();
        case 'product':
          return lookups.listProducts();
      }
      // Unreachable while LookupQuery lists only the fields handled above.
      throw fieldError('field', `"${String(field)}" is not a valid choice.`);
    },
  );
};

export default lookupRoutes;
