import { randomUUID } from 'node:crypto';
import type { TestApp } from '../../../../helper';
import {
  createLicense,
  csvForm,
  csvOf,
  learner,
  orgAdmin,
  orgId,
  otherLearner,
  roleId,
  uploaded,
} from './user-admin-fixtures';
import type { Fixture } from '../../../../security/suite-shapes';

/**
 * The user and file administration routes for the auth matrix (api/test/security): shapes are in
 * security/suite-shapes.ts. Each build makes what the call consumes (a fresh upload, user or seat),
 * so the positive control and the refused attempts never depend on each other.
 */
export function userAdminFixtures(app: () => TestApp): Record<string, Fixture> {
  let setup: Promise<{
    demo: number;
    other: number;
    demoLicense: number;
    otherLicense: number;
    learnerRole: number;
  }> | null = null;
  const ctx = () =>
    (setup ??= (async () => {
      const { db } = app();
      const demo = await orgId(db, 'Demo Hospital');
      const other = await orgId(db, 'Other College');
      return {
        demo,
        other,
        demoLicense: await createLicense(db, demo, { seats: 100_000 }),
        otherLicense: await createLicense(db, other, { seats: 100_000 }),
        learnerRole: await roleId(db, 'learner'),
      };
    })());

  /**
   * A fresh user of the organisation (deleting one consumes it), optionally with a seat;
   * `invited`: their account has not been signed in to yet.
   */
  const freshUser = async (organisation: 'demo' | 'other', license?: number, invited = false) => {
    const c = await ctx();
    const id = randomUUID();
    await app().db.query(
      `insert into users (id, email, first_name, last_name, organisation_id, role_id,
                          account_status, identity_sub)
       values ($1, $2, 'Matrix', 'User', $3, $4,
               case when $5 then 'invited' else 'active' end, $6)`,
      [id, `${id}@matrix.test`, c[organisation], c.learnerRole, invited, invited ? id : null],
    );
    if (license !== undefined) {
      await app().db.query(
        'insert into license_block_users (license_block_id, user_id) values ($1, $2)',
        [license, id],
      );
    }
    return id;
  };
  const freshCsv = () => csvOf([['Matrix', 'Row', `${randomUUID()}@matrix.test`]]);
  const userBody = (id: string) => ({
    firstName: 'Matrix',
    lastName: 'Edited',
    email: `${id}@matrix.test`,
    userRole: 1,
  });

  return {
    'GET /api/v1/organisation/:id/user': {
      actor: orgAdmin,
      build: async () => ({ url: `/api/v1/organisation/${(await ctx()).demo}/user` }),
      foreign: async () => [
        {
          as: orgAdmin,
          what: "another organisation's users",
          req: { url: `/api/v1/organisation/${(await ctx()).other}/user` },
        },
      ],
    },
    'POST /api/v1/user': {
      actor: orgAdmin,
      build: async () => {
        const c = await ctx();
        const file = await uploaded(app(), orgAdmin.sub, freshCsv());
        return {
          url: '/api/v1/user',
          payload: { file, license: c.demoLicense, role: c.learnerRole },
        };
      },
      foreign: async () => {
        const c = await ctx();
        const file = await uploaded(app(), orgAdmin.sub, freshCsv());
        return [
          {
            as: orgAdmin,
            what: "another organisation's licence",
            req: {
              url: '/api/v1/user',
              payload: { file, license: c.otherLicense, role: c.learnerRole },
            },
          },
        ];
      },
    },
    'GET /api/v1/user/:id': {
      actor: orgAdmin,
      build: async () => ({ url: `/api/v1/user/${learner.sub}` }),
      foreign: async () => [
        {
          as: orgAdmin,
          what: "another organisation's user",
          req: { url: `/api/v1/user/${otherLearner.sub}` },
        },
      ],
    },
    'PUT /api/v1/user/:id': {
      actor: orgAdmin,
      build: async () => {
        const id = await freshUser('demo');
        return { url: `/api/v1/user/${id}`, payload: userBody(id) };
      },
      foreign: async () => {
        const id = await freshUser('other');
        return [
          {
            as: orgAdmin,
            what: "another organisation's user",
            req: { url: `/api/v1/user/${id}`, payload: userBody(id) },
          },
        ];
      },
    },
    'DELETE /api/v1/user/:id': {
      actor: orgAdmin,
      build: async () => ({ url: `/api/v1/user/${await freshUser('demo')}` }),
      foreign: async () => [
        {
          as: orgAdmin,
          what: "another organisation's user",
          req: { url: `/api/v1/user/${await freshUser('other')}` },
        },
      ],
    },
    'POST /api/v1/user/:id/invitation': {
      actor: orgAdmin,
      build: async () => ({
        url: `/api/v1/user/${await freshUser('demo', undefined, true)}/invitation`,
      }),
      foreign: async () => [
        {
          as: orgAdmin,
          what: "another organisation's invited user",
          req: { url: `/api/v1/user/${await freshUser('other', undefined, true)}/invitation` },
        },
      ],
    },
    'GET /api/v1/user/:id/license-block': {
      actor: orgAdmin,
      build: async () => ({ url: `/api/v1/user/${learner.sub}/license-block` }),
      foreign: async () => [
        {
          as: orgAdmin,
          what: "another organisation's user",
          req: { url: `/api/v1/user/${otherLearner.sub}/license-block` },
        },
      ],
    },
    'DELETE /api/v1/user/:id/license-block/:licenseId': {
      actor: orgAdmin,
      build: async () => {
        const { demoLicense } = await ctx();
        return {
          url: `/api/v1/user/${await freshUser('demo', demoLicense)}/license-block/${demoLicense}`,
        };
      },
      foreign: async () => {
        const { otherLicense } = await ctx();
        return [
          {
            as: orgAdmin,
            what: "another organisation's user's seat",
            req: {
              url: `/api/v1/user/${await freshUser('other', otherLicense)}/license-block/${otherLicense}`,
            },
          },
        ];
      },
    },
    'POST /api/v1/file/upload/user': {
      actor: orgAdmin,
      build: async () => {
        const form = csvForm(freshCsv());
        return {
          url: '/api/v1/file/upload/user',
          headers: { 'content-type': form.contentType },
          payload: form.payload,
        };
      },
    },
  };
}
