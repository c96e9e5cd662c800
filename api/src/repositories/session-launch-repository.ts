import { isUuid, SIMULATION_MODES, type SimulationMode } from '@portal/contract';
import type { Queryable } from '../db/driver';
import { isGlobalAdmin } from '../lib/object-access';
import { prepared } from '../db/prepared';
import {
  isoDay,
  memberModesSql,
  organisationSeesProductSql,
  sortModes,
} from './entitlement-repository';
import { launchOwnerAndAgeSql } from './lti-repository';
import {
  launchConfigurationSql,
  type ResolvedConfiguration,
} from './product-configuration-repository';
import type { AuthUser } from './user-repository';

/** What a session's creation checks before it writes, read together. */
export interface LaunchFacts {
  /** modesFor's answer: the modes the user may launch the product in (VR first); empty if none. */
  modes: SimulationMode[];
  /** The product is among productIdsFor's (only asked when `modes` is empty). */
  productVisible: boolean;
  /** resolveLaunch's answer. */
  configuration: ResolvedConfiguration | null;
  /** launchOwnerAndAge's answer; null without a launch id, or for an unknown or malformed one. */
  launch: { userId: string; ageSeconds: number } | null;
}

interface FactsRow {
  modes: SimulationMode[] | null;
  product_visible: boolean;
  configuration_id: number | null;
  leaf_ids: number[] | null;
  launch_user_id: string | null;
  launch_age: number | null;
}

/** The configuration and the launch, joined to the one row of the licence checks. */
const launchJoins = (product: string, configuration: string, launch: string) =>
  `left join (${launchConfigurationSql(product, configuration)}) r on true
   left join (${launchOwnerAndAgeSql(launch)}) l on true`;

const FACTS_COLUMNS = `r.id as configuration_id, r.leaf_ids,
       l.user_id as launch_user_id, l.age as launch_age`;

/**
 * A member's (or anyone else's but a global administrator's): the organisation's licence rules of
 * modesFor and productIdsFor. Without an organisation neither finds anything, as theirs answer.
 */
const MEMBER_FACTS_SQL = prepared(
  `select array(${memberModesSql('$1::uuid', '$2::integer', '$3::date', '$4::integer')}) as modes,
          ${organisationSeesProductSql('$2::integer', '$3::date', '$4::integer')} as product_visible,
          ${FACTS_COLUMNS}
     from (values (1)) one (x)
     ${launchJoins('$4::integer', '$5::text', '$6')}`,
);

/** A global administrator sees every product, in every mode. */
const ADMIN_FACTS_SQL = prepared(
  `select null::text[] as modes,
          exists (select 1 from products where id = $1::integer) as product_visible,
          ${FACTS_COLUMNS}
     from (values (1)) one (x)
     ${launchJoins('$1::integer', '$2::text', '$3')}`,
);

/**
 * The reads of a session's creation (issue #24 point 5) in one statement instead of three or
 * four round trips: the answers of modesFor, productIdsFor, resolveLaunch and launchOwnerAndAge,
 * from their own SQL, so the service decides on them exactly as it did on theirs.
 */
export function createSessionLaunchRepository(q: Queryable) {
  return {
    async facts(
      user: AuthUser,
      productId: number,
      configuration: string,
      ltiLaunchId: string | null,
      today: Date = new Date(),
    ): Promise<LaunchFacts> {
      // launchOwnerAndAge: a malformed id is unknown, never a cast error.
      const launchId = ltiLaunchId !== null && isUuid(ltiLaunchId) ? ltiLaunchId : null;
      const admin = isGlobalAdmin(user);
      const res = admin
        ? await q.query<FactsRow>(ADMIN_FACTS_SQL, [productId, configuration, launchId])
        : await q.query<FactsRow>(MEMBER_FACTS_SQL, [
            user.id,
            user.organisationId,
            isoDay(today),
            productId,
            configuration,
            launchId,
          ]);
      const row = res.rows[0];
      if (!row) throw new Error('the session launch read answered no row');
      const modes = admin
        ? row.product_visible
          ? [...SIMULATION_MODES]
          : []
        : sortModes([...(row.modes ?? [])]);
      return {
        modes,
        productVisible: row.product_visible,
        configuration:
          row.configuration_id === null
            ? null
            : { id: row.configuration_id, leafIds: row.leaf_ids ?? [] },
        launch:
          row.launch_user_id === null
            ? null
            : { userId: row.launch_user_id, ageSeconds: Number(row.launch_age) },
      };
    },
  };
}
