import type { LicenseBlock, PagedQuery, PagedResult } from '@portal/contract';
import type { Queryable } from '../../../../db/driver';
import { pagedList } from '../../../../lib/paged-list';
import { currentLicenseSql, isoDay } from '../../../../repositories/entitlement-repository';

interface Row {
  id: number;
  license_name: string;
  sales_reference: string | null;
  seats_used: number;
  number_of_seats: number;
  start_date: string;
  expiry_date: string;
  is_active: boolean;
  duration_id: number;
  organisation_id: number;
  entitlements: number[] | null;
  is_current: boolean;
}

/** GET /api/v1/user/{id}/license-block: the licences the user holds a seat of, as licence lists show them. */
export function listUserLicenses(
  db: Queryable,
  userId: string,
  query: PagedQuery,
  today: Date = new Date(),
): Promise<PagedResult<LicenseBlock>> {
  return pagedList<Row, LicenseBlock>(db, query, {
    from: 'license_block_users s join license_blocks lb on lb.id = s.license_block_id',
    select: `lb.id, lb.license_name, lb.sales_reference, lb.seats_used, lb.number_of_seats,
      to_char(lb.start_date, 'YYYY-MM-DD') as start_date,
      to_char(lb.expiry_date, 'YYYY-MM-DD') as expiry_date,
      lb.is_active, lb.duration_id, lb.organisation_id,
      array(select lbe.entitlement_id from license_block_entitlements lbe
             where lbe.license_block_id = lb.id order by lbe.entitlement_id) as entitlements,
      ${currentLicenseSql('lb', '$2::date')} as is_current`,
    // $2 is read by the select list; the condition types it for the count query, which has none.
    where: {
      sql: 's.user_id = $1::uuid and $2::date is not null',
      params: [userId, isoDay(today)],
    },
    sortable: {
      id: 'lb.id',
      licenseName: 'lower(lb.license_name)',
      startDate: 'lb.start_date',
      expiryDate: 'lb.expiry_date',
      isActive: 'lb.is_active',
    },
    searchable: ['lb.license_name', 'lb.sales_reference'],
    defaultOrdering: 'licenseName',
    tieBreaker: 'lb.id',
    map: (row) => ({
      id: row.id,
      licenseName: row.license_name,
      salesReference: row.sales_reference,
      seatsUsed: row.seats_used,
      numberOfSeats: row.number_of_seats,
      startDate: row.start_date,
      expiryDate: row.expiry_date,
      isActive: row.is_active,
      duration: row.duration_id,
      organisation: row.organisation_id,
      entitlements: row.entitlements ?? [],
      isCurrent: row.is_current,
    }),
  });
}
