import type { EntitlementModes } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

export const getEntitlementModesKey = (userId: string, productId: number) =>
  `/api/v1/user/${encodeURIComponent(userId)}/entitlement-mode/${productId}`;

/** The modes (VR, Desktop) the user's active licences allow for the product; null waits. */
export function useEntitlementModes(userId: string | undefined, productId: number | null) {
  return useApi<EntitlementModes>(
    userId && productId !== null ? getEntitlementModesKey(userId, productId) : null,
  );
}
