import { randomUUID } from 'node:crypto';
import type { LtiErrorCode } from '@portal/contract';
import type { Queryable } from '../db/driver';
import { createLaunchedAccountItem } from '../identity/provisioning';
import { type AuditActor, createAuditRepository } from '../repositories/audit-repository';
import { currentLicenseSql, isoDay } from '../repositories/entitlement-repository';
import { createLicenseRepository } from '../repositories/license-repository';
import { createOutboxRepository } from '../repositories/outbox-repository';
import { createUserRepository } from '../repositories/user-repository';
import type { ValidLaunch } from '../repositories/lti-types';
import { portalRoleFor } from './validate-launch';

export type LinkResult =
  | { ok: true; userId: string; created: boolean }
  | { ok: false; error: LtiErrorCode; reason: string };

const refuse = (error: LtiErrorCode, reason: string): LinkResult => ({ ok: false, error, reason });

interface UserRow {
  id: string;
  organisation_id: number | null;
  first_name: string;
  last_name: string;
  email: string | null;
  is_global: boolean;
}

const USER_SQL = `select u.id::text as id, u.organisation_id, u.first_name, u.last_name, u.email,
  exists (select 1 from role_permissions rp join permissions p on p.id = rp.permission_id
           where rp.role_id = u.role_id and p.codename = 'global.create_org') as is_global
  from users u`;

const actorOf = (u: UserRow): AuditActor => ({
  id: u.id,
  firstName: u.first_name,
  lastName: u.last_name,
  // The audit log's actor e-mail is text; a user from a platform that sends none has ''.
  email: u.email ?? '',
});

/** The launch's e-mail when it is one the portal can hold; anything else counts as none. */
function emailOf(launch: ValidLaunch): string | null {
  const email = launch.email?.trim() ?? '';
  return email.length <= 254 && email.indexOf('@') > 0 ? email : null;
}

/**
 * Names from the claims; a platform that sends only `name` or only the e-mail still gets a named
 * user. Without either the names stay empty and the admin lists show the user as a learner from
 * the platform with its platform user id (LTI Core §5.3.6: every name claim is optional).
 */
function namesOf(launch: ValidLaunch, email: string | null): { firstName: string; lastName: string } {
  if (launch.givenName || launch.familyName) {
    return { firstName: launch.givenName ?? '', lastName: launch.familyName ?? '' };
  }
  const parts = (launch.name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length > 0) return { firstName: parts[0]!, lastName: parts.slice(1).join(' ') };
  return { firstName: email ? email.split('@')[0]! : '', lastName: '' };
}

/**
 * The portal user a launch's platform user is (issue #10 point 2, issue #22 point 3), inside the
 * launch's transaction: the stored link of issuer + sub, else — only when an administrator marked
 * the registration "platform verifies e-mail addresses" — the organisation's user with the
 * launch's e-mail (linked from now on), else a new learner (educator for instructor and
 * administrator roles). A launch without an e-mail makes a user without one. Without the mark, an
 * e-mail of an existing account is refused (`email_unverified_platform`): attaching the launch
 * would let the platform's administrator sign in as any account whose address they type, and a
 * second account with the same address would break its uniqueness. Users with an e-mail get an
 * identity account through the provisioning outbox. Every user but a global
 * administrator must hold a seat of a current licence of the organisation; one is taken from the
 * licence with free seats that runs longest, and without one the launch is PERMISSION_DENIED.
 */
export async function linkPlatformUser(
  tx: Queryable,
  launch: ValidLaunch,
  today: Date = new Date(),
): Promise<LinkResult> {
  const { platform } = launch;
  const org = await tx.query<{ is_active: boolean; language: string | null }>(
    `select o.is_active, l.code as language
       from organisations o left join lookups l on l.id = o.default_language_id
      where o.id = $1`,
    [platform.organisationId],
  );
  const organisation = org.rows[0];
  if (!organisation?.is_active) return refuse('PERMISSION_DENIED', 'organisation_inactive');

  let user: UserRow | undefined = (
    await tx.query<UserRow>(
      `${USER_SQL} join lti_user_links k on k.user_id = u.id
        where k.issuer = $1 and k.platform_sub = $2`,
      [platform.issuer, launch.sub],
    )
  ).rows[0];
  let created = false;

  if (user && user.organisation_id !== platform.organisationId) {
    return refuse('PERMISSION_DENIED', 'linked_user_other_organisation');
  }
  if (!user) {
    const email = emailOf(launch);
    if (email) {
      user = (await tx.query<UserRow>(`${USER_SQL} where lower(u.email) = lower($1)`, [email]))
        .rows[0];
      if (user && user.organisation_id !== platform.organisationId) {
        return refuse('USER_NOT_LINKED', 'email_other_organisation');
      }
      if (user && !platform.verifiesEmail) {
        return refuse('USER_NOT_LINKED', 'email_unverified_platform');
      }
    }
    if (!user) {
      const role = await tx.query<{ id: number }>('select id from roles where name = $1', [
        portalRoleFor(launch.roles),
      ]);
      const { firstName, lastName } = namesOf(launch, email);
      const fresh = { id: randomUUID(), email, firstName, lastName };
      await createUserRepository(tx).insertUsers(
        [fresh],
        platform.organisationId,
        role.rows[0]!.id,
        organisation.language ?? 'en',
      );
      // An account for every launched user, for the launch sign-in's broker link. Without an
      // address there is no invitation to wait for: the user is active from the start.
      await createOutboxRepository(tx).enqueue([createLaunchedAccountItem(fresh)]);
      if (!email) await tx.query(`update users set account_status = 'active' where id = $1`, [fresh.id]);
      user = {
        id: fresh.id,
        organisation_id: platform.organisationId,
        first_name: firstName,
        last_name: lastName,
        email,
        is_global: false,
      };
      // The platform vouched for the user; they are the actor of their own creation.
      await createAuditRepository(tx).record({
        actor: actorOf(user),
        action: 'create',
        entityType: 'user',
        entityId: fresh.id,
        organisationId: platform.organisationId,
        after: {
          email,
          firstName,
          lastName,
          role: portalRoleFor(launch.roles),
          ltiIssuer: platform.issuer,
          ltiSub: launch.sub,
        },
      });
      created = true;
    }
    await tx.query(
      `insert into lti_user_links (issuer, platform_sub, user_id) values ($1, $2, $3)
       on conflict (issuer, platform_sub) do nothing`,
      [platform.issuer, launch.sub, user.id],
    );
  }

  if (!user.is_global && !(await ensureSeat(tx, user, platform.organisationId, today))) {
    return refuse('PERMISSION_DENIED', 'no_seat');
  }
  return { ok: true, userId: user.id, created };
}

/** A seat of a licence that grants access today, taking one when the user has none. */
async function ensureSeat(
  tx: Queryable,
  user: UserRow,
  organisationId: number,
  today: Date,
): Promise<boolean> {
  const held = await tx.query(
    `select 1 from license_block_users s join license_blocks lb on lb.id = s.license_block_id
      where s.user_id = $1 and lb.organisation_id = $2 and ${currentLicenseSql('lb', '$3::date')}
      limit 1`,
    [user.id, organisationId, isoDay(today)],
  );
  if (held.rowCount > 0) return true;
  const free = await tx.query<{ id: number }>(
    `select lb.id from license_blocks lb
      where lb.organisation_id = $1 and lb.seats_used < lb.number_of_seats
        and ${currentLicenseSql('lb', '$2::date')}
      order by lb.expiry_date desc, lb.id`,
    [organisationId, isoDay(today)],
  );
  for (const { id } of free.rows) {
    // assignUsers decides under the licence's lock; a licence filled meanwhile is skipped.
    const assigned = await createLicenseRepository(tx).assignUsers({
      licenseBlockId: id,
      organisationId,
      userIds: [user.id],
      actor: actorOf(user),
      today,
    });
    if (assigned.ok) return true;
  }
  return false;
}
