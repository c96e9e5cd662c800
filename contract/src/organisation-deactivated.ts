import { Type, type Static } from '@sinclair/typebox';

/**
 * The machine-readable code of the API's 403 to members of a deactivated organisation: every
 * route answers it (global administrators excepted) until the organisation is reactivated.
 */
export const ORGANISATION_DEACTIVATED = 'ORGANISATION_DEACTIVATED';

export const ORGANISATION_DEACTIVATED_DETAIL =
  'Your organisation has been deactivated. Contact its administrators or support to have it reactivated.';

/** Someone the members of a deactivated organisation can turn to: one of its administrators. */
export const OrganisationAdministratorContact = Type.Object({
  name: Type.String(),
  email: Type.String(),
});
export type OrganisationAdministratorContact = Static<typeof OrganisationAdministratorContact>;

/** The organisation a 403 ORGANISATION_DEACTIVATED is about, and whom to contact. */
export const DeactivatedOrganisation = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** The organisation's main contact as its record has it (free text), if any. */
  mainContact: Type.Union([Type.String(), Type.Null()]),
  administrators: Type.Array(OrganisationAdministratorContact),
});
export type DeactivatedOrganisation = Static<typeof DeactivatedOrganisation>;

export const OrganisationDeactivated = Type.Object({
  detail: Type.String(),
  code: Type.Literal(ORGANISATION_DEACTIVATED),
  organisation: DeactivatedOrganisation,
  /** The refused user's language: the page saying so is shown in it before whoami ever worked. */
  language: Type.String(),
});
export type OrganisationDeactivated = Static<typeof OrganisationDeactivated>;

/**
 * Every 403 body: `{detail}`, with `code` and `organisation` when the refusal is the
 * organisation's deactivation. One object (not a union) so that the API's response serialiser
 * keeps the optional fields on every route.
 */
export const Forbidden = Type.Object({
  detail: Type.String(),
  code: Type.Optional(Type.String()),
  organisation: Type.Optional(DeactivatedOrganisation),
  language: Type.Optional(Type.String()),
});
export type Forbidden = Static<typeof Forbidden>;

/** Whether an error answer's body is the deactivated organisation's 403. */
export function isOrganisationDeactivated(body: unknown): body is OrganisationDeactivated {
  if (typeof body !== 'object' || body === null) return false;
  const { code, organisation } = body as { code?: unknown; organisation?: unknown };
  return code === ORGANISATION_DEACTIVATED && typeof organisation === 'object' && organisation !== null;
}
