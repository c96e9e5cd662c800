import { isOrganisationDeactivated, type OrganisationDeactivated } from '@portal/contract';

/**
 * The API's ORGANISATION_DEACTIVATED answer behind an error, or null. The auth provider wraps
 * whoami's failure (`Error('Failed', { cause })`); the API client's errors carry the body.
 */
export function deactivationOf(error: unknown): OrganisationDeactivated | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { body, cause } = current as { body?: unknown; cause?: unknown };
    if (isOrganisationDeactivated(body)) return body;
    current = cause;
  }
  return null;
}
