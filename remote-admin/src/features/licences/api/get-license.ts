import type { LicenseBlock } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import { licensesPath } from './get-licenses';

/** GET /api/v1/organisation/{id}/license-block/{licenseId}. */
export const getLicenseKey = (organisationId: number, licenseId: number) =>
  `${licensesPath(organisationId)}/${encodeURIComponent(String(licenseId))}`;

export function useLicense(organisationId: number, licenseId: number | null) {
  return useApi<LicenseBlock>(licenseId === null ? null : getLicenseKey(organisationId, licenseId));
}
