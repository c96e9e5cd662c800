import { account, type TestApp } from '../../../../helper';
import { createLtiRegistrationRepository } from '../../../../../src/repositories/lti-registration-repository';
import {
  serveRegistrationPlatform,
  type RegistrationPlatform,
} from '../../../../lti/registration-platform';
import type { Fixture } from '../../../../security/suite-shapes';

/**
 * Dynamic registration routes for the auth matrix (api/test/security): shapes are in
 * security/suite-shapes.ts. The registration URL and the tool configuration are for global
 * administrators; `/api/lti/register` is public and authorised by its portal token, so its control
 * registers with a fresh token against an in-test platform on 127.0.0.1.
 */
const sysAdmin = account('sys admin');

export function ltiRegistrationFixtures(app: () => TestApp): Record<string, Fixture> {
  let lms: Promise<RegistrationPlatform> | null = null;
  const organisation = async () =>
    (
      await app().db.query<{ id: number }>(
        "select id from organisations where name = 'Demo Hospital'",
      )
    ).rows[0]!.id;

  return {
    'GET /api/lti/register': {
      build: async () => {
        const platform = await (lms ??= serveRegistrationPlatform());
        const made = await createLtiRegistrationRepository(app().db).createToken(
          await organisation(),
          {
            id: sysAdmin.sub,
            firstName: sysAdmin.firstName,
            lastName: sysAdmin.lastName,
            email: sysAdmin.email,
          },
        );
        return { url: `/api/lti/register?${platform.registerQuery(made!.token)}` };
      },
      succeeded: (res) => res.statusCode === 200,
    },
    'POST /api/v1/organisation/:id/lti/registration-token': {
      actor: sysAdmin,
      build: async () => ({
        url: `/api/v1/organisation/${await organisation()}/lti/registration-token`,
      }),
    },
    'GET /api/v1/lti/tool': {
      actor: sysAdmin,
      build: async () => ({ url: '/api/v1/lti/tool' }),
    },
  };
}
