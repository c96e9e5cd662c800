import {
  NOTIFY_EXPIRY_DAYS,
  NOTIFY_SEATS_SHARE,
  type Notification,
  type NotificationKind,
} from '@portal/contract';
import type { Queryable } from '../db/driver';
import { currentLicenseSql, isoDay } from './entitlement-repository';

interface NotificationRow {
  kind: NotificationKind;
  organisation_id: number;
  organisation_name: string;
  id: number;
  license_name: string;
  expiry_date: string | null;
  seats_used: number;
  number_of_seats: number;
}

/**
 * What needs an administrator's attention about licences (GET /api/v1/notification), on `today`:
 * - `license_ended`: the expiry day passed within the last NOTIFY_EXPIRY_DAYS days;
 * - `license_expiring`: a licence that grants (or will) ends within NOTIFY_EXPIRY_DAYS days;
 * - `license_seats_nearly_full`: a licence that grants (or will) has at least NOTIFY_SEATS_SHARE
 *   of its seats taken.
 * Ended first, then expiring, then seats; soonest expiry first within each.
 */
export function createNotificationRepository(db: Queryable) {
  return {
    /** `organisationId` null: every organisation's (global administrators). */
    async list(organisationId: number | null, today: Date = new Date()): Promise<Notification[]> {
      const granting = currentLicenseSql('lb', '$1::date', { notStartedToo: true });
      const res = await db.query<NotificationRow>(
        `select n.kind, o.id as organisation_id, o.name as organisation_name, lb.id,
                lb.license_name, lb.seats_used, lb.number_of_seats,
                case when n.kind = 'license_seats_nearly_full' then null
                     else to_char(lb.expiry_date, 'YYYY-MM-DD') end as expiry_date
           from license_blocks lb
           join organisations o on o.id = lb.organisation_id
           cross join lateral (
             select 'license_ended' as kind, 0 as rank
              where lb.expiry_date < $1::date and lb.expiry_date >= $1::date - $2::integer
             union all
             select 'license_expiring', 1
              where ${granting} and lb.expiry_date <= $1::date + $2::integer
             union all
             select 'license_seats_nearly_full', 2
              where ${granting} and lb.number_of_seats > 0
                and lb.seats_used >= $3::numeric * lb.number_of_seats
           ) n
          where ($4::integer is null or lb.organisation_id = $4)
          order by n.rank, lb.expiry_date, lower(lb.license_name), lb.id`,
        [isoDay(today), NOTIFY_EXPIRY_DAYS, NOTIFY_SEATS_SHARE, organisationId],
      );
      return res.rows.map((row) => ({
        kind: row.kind,
        organisation: row.organisation_id,
        organisationName: row.organisation_name,
        license: row.id,
        licenseName: row.license_name,
        expiryDate: row.expiry_date,
        seatsUsed: row.seats_used,
        numberOfSeats: row.number_of_seats,
      }));
    },
  };
}

export type NotificationRepository = ReturnType<typeof createNotificationRepository>;
