import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../../../../src/db/driver';
import { account, type TestApp } from '../../../../helper';
import type { Fixture } from '../../../../security/suite-shapes';

export const sysAdmin = account('sys admin');
export const orgAdmin = account('org admin', 'Demo Hospital');

export async function orgId(db: Queryable, name: 'Demo Hospital' | 'Other College') {
  const res = await db.query<{ id: number }>('select id from organisations where name = $1', [
    name,
  ]);
  return res.rows[0]!.id;
}

/**
 * A licence of the organisation ending `expiresInDays` from today (negative: ended), with
 * `seatsUsed` of `seats` taken (the seat counter set directly: these tests are about the counts).
 */
export async function licenseWith(
  db: Queryable,
  organisationId: number,
  options: {
    expiresInDays: number;
    seats?: number;
    seatsUsed?: number;
    active?: boolean;
    name?: string;
  },
): Promise<{ id: number; name: string }> {
  const name = options.name ?? `Notify ${randomUUID().slice(0, 8)}`;
  const res = await db.query<{ id: number }>(
    `insert into license_blocks (organisation_id, license_name, number_of_seats, seats_used,
                                 start_date, expiry_date, is_active, duration_id)
     values ($1, $2, $3, $4, current_date - 400, current_date + $5::integer, $6,
             (select id from lookups where field = 'license_duration' and code = 'P1Y'))
     returning id`,
    [
      organisationId,
      name,
      options.seats ?? 10,
      options.seatsUsed ?? 0,
      options.expiresInDays,
      options.active ?? true,
    ],
  );
  return { id: res.rows[0]!.id, name };
}

/** GET /api/v1/notification for the auth matrix (api/test/security). */
export function notificationFixtures(app: () => TestApp): Record<string, Fixture> {
  return {
    'GET /api/v1/notification': {
      actor: orgAdmin,
      build: async () => ({ url: '/api/v1/notification' }),
      foreign: async () => [
        {
          as: orgAdmin,
          what: "another organisation's notifications",
          req: {
            url: `/api/v1/notification?organisation=${await orgId(app().db, 'Other College')}`,
          },
        },
      ],
    },
  };
}
