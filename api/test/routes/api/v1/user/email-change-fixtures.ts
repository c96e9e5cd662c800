import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from '../../../../../src/db/driver';
import type { TestApp } from '../../../../helper';
import type { Fixture } from '../../../../security/suite-shapes';
import { orgAdmin } from './user-admin-fixtures';

export type PendingState = 'pending' | 'expired' | 'used';

/**
 * A fresh user of the organisation with a pending e-mail change (or an expired or used one), as
 * PUT /api/v1/user/{id} leaves it; answers the user and the link's token.
 */
export async function userWithEmailChange(
  db: Queryable,
  organisation: 'Demo Hospital' | 'Other College',
  state: PendingState = 'pending',
): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `insert into users (id, email, first_name, last_name, organisation_id, role_id, account_status)
     values ($1, $2, 'Pending', 'Change', (select id from organisations where name = $3),
             (select id from roles where name = 'learner'), 'active')`,
    [id, `${id}@pending.test`, organisation],
  );
  await db.query(
    `insert into email_changes (user_id, new_email, token_hash, expires_at, confirmed_at)
     values ($1, $2, $3, now() + case when $4 then interval '-1 hour' else interval '1 day' end,
             case when $5 then now() end)`,
    [
      id,
      `${id}@new.pending.test`,
      createHash('sha256').update(token).digest(),
      state === 'expired',
      state === 'used',
    ],
  );
  return { id, token };
}

/** The e-mail change routes and the development outbox for the auth matrix. */
export function emailChangeFixtures(app: () => TestApp): Record<string, Fixture> {
  const link = (path: 'lookup' | 'confirm'): Fixture => ({
    build: async () => {
      const { token } = await userWithEmailChange(app().db, 'Demo Hospital');
      return { url: `/api/v1/email-change/${path}`, payload: { token } };
    },
  });
  return {
    'POST /api/v1/email-change/lookup': link('lookup'),
    'POST /api/v1/email-change/confirm': link('confirm'),
    'GET /api/dev/outbox.json': { build: async () => ({ url: '/api/dev/outbox.json' }) },
    'DELETE /api/v1/user/:id/email-change': {
      actor: orgAdmin,
      build: async () => {
        const { id } = await userWithEmailChange(app().db, 'Demo Hospital');
        return { url: `/api/v1/user/${id}/email-change` };
      },
      foreign: async () => {
        const { id } = await userWithEmailChange(app().db, 'Other College');
        return [
          {
            as: orgAdmin,
            what: "another organisation's user's pending change",
            req: { url: `/api/v1/user/${id}/email-change` },
          },
        ];
      },
    },
  };
}
