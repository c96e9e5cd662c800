import { useCallback } from 'react';
import { hasAnyPermission, type Permission } from '@portal/contract/permissions';
import { useAuth } from '../auth/use-auth';

/** `(anyOf) => boolean`: true when the signed-in user holds any one of the permissions. */
export function usePermissions(): (anyOf: readonly Permission[]) => boolean {
  const { user } = useAuth();
  return useCallback((anyOf) => hasAnyPermission(user?.permissions, anyOf), [user]);
}
