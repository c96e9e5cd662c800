import { SIMULATION_MODES, type SimulationMode } from '@portal/contract';
import type { Queryable } from '../db/driver';
import { isGlobalAdmin } from '../lib/object-access';
import type { AuthUser } from './user-repository';
import { prepared } from '../db/prepared';

/** Licence dates are calendar days; a licence counts on its start and expiry day alike. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** `license_duration` code of a licence that has not started (docs/requirements.md#administration: start date read-only). */
export const INACTIVE_DURATION = 'inactive';

/**
 * The one rule of when a licence counts (an expired or inactive licence grants nothing):
 * active, its duration not "inactive", and `day` (a `$n::date` placeholder) within its start and
 * expiry dates. `lb` is the licence's alias. The catalogue, launch modes, downloads and the licence
 * lists use it as it is.
 *
 * `notStartedToo`: a licence whose start date is still ahead counts as well. Seats may be filled
 * before a licence starts, so that its users can sign in on its first day; the seat assignment
 * (assignUsers), the bulk user add and the `organisation_licenses` lookup that offers licences to
 * add users to ask this. Nothing is granted before the start: that is the rule without the flag.
 */
export function currentLicenseSql(
  lb: string,
  day: string,
  { notStartedToo = false }: { notStartedToo?: boolean } = {},
): string {
  const within = notStartedToo
    ? `${day} <= ${lb}.expiry_date`
    : `${day} between ${lb}.start_date and ${lb}.expiry_date`;
  return `(${lb}.is_active
    and ${within}
    and not exists (select 1 from lookups dur
                     where dur.id = ${lb}.duration_id and dur.code = '${INACTIVE_DURATION}'))`;
}

const modeOrder = (a: SimulationMode, b: SimulationMode) =>
  SIMULATION_MODES.indexOf(a) - SIMULATION_MODES.indexOf(b);

/** Modes in the order they are offered: VR before Desktop. */
export const sortModes = (modes: SimulationMode[]): SimulationMode[] => modes.sort(modeOrder);

/**
 * The condition that an organisation's current licence blocks grant the product (`product`, an
 * expression): its members see it. `org`, `day` and `product` are SQL placeholders or columns.
 * productIdsFor and the session launch's read (session-launch-repository.ts) share it.
 */
export function organisationSeesProductSql(org: string, day: string, product: string): string {
  return `exists (
                  select 1
                    from license_blocks lb
                    join license_block_entitlements lbe on lbe.license_block_id = lb.id
                    join entitlements e on e.id = lbe.entitlement_id
                   where lb.organisation_id = ${org}
                     and ${currentLicenseSql('lb', day)}
                     and e.product_id = ${product})`;
}

/**
 * The distinct modes (column `mode`) a member of `org` may launch `product` in: a seat in a
 * current block granting it. modesFor and the session launch's read share it.
 */
export function memberModesSql(user: string, org: string, day: string, product: string): string {
  return `select distinct e.mode
           from license_block_users lbu
           join license_blocks lb on lb.id = lbu.license_block_id
           join license_block_entitlements lbe on lbe.license_block_id = lb.id
           join entitlements e on e.id = lbe.entitlement_id
          where lbu.user_id = ${user}
            and lb.organisation_id = ${org}
            and ${currentLicenseSql('lb', day)}
            and e.product_id = ${product}`;
}

/**
 * What a user may launch. An organisation's current licence blocks (`currentLicenseSql`) make their products visible to all its members; launching in a mode also needs a seat in
 * a current block that grants that product in that mode. Global administrators see everything.
 */
export function createEntitlementRepository(db: Queryable) {
  return {
    /** Ids of the products the user sees, in catalogue order. */
    async productIdsFor(user: AuthUser, today: Date = new Date()): Promise<number[]> {
      if (isGlobalAdmin(user)) {
        const res = await db.query<{ id: number }>('select id from products order by sort, id');
        return res.rows.map((r) => r.id);
      }
      if (user.organisationId === null) return [];
      const res = await db.query<{ id: number }>(
        prepared(`select p.id
           from products p
          where ${organisationSeesProductSql('$1', '$2::date', 'p.id')}
          order by p.sort, p.id`),
        [user.organisationId, isoDay(today)],
      );
      return res.rows.map((r) => r.id);
    },

    /** The modes the user may launch the product in (VR before Desktop); empty if none. */
    async modesFor(
      user: AuthUser,
      productId: number,
      today: Date = new Date(),
    ): Promise<SimulationMode[]> {
      if (isGlobalAdmin(user)) {
        const res = await db.query('select 1 from products where id = $1', [productId]);
        return res.rowCount > 0 ? [...SIMULATION_MODES] : [];
      }
      if (user.organisationId === null) return [];
      const res = await db.query<{ mode: SimulationMode }>(
        prepared(memberModesSql('$1', '$2', '$3::date', '$4')),
        [user.id, user.organisationId, isoDay(today), productId],
      );
      return sortModes(res.rows.map((r) => r.mode));
    },
  };
}

export type EntitlementRepository = ReturnType<typeof createEntitlementRepository>;
