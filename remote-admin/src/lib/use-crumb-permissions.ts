import { useCallback } from 'react';
import type { Permission } from '@portal/contract';
import { usePermissions } from '@portal/shared-auth';

/**
 * shared-ui's Breadcrumbs and TabLinks ask `(anyOf: readonly string[]) => boolean` (shared-ui does
 * not know the contract's Permission type); the crumbs and tabs here are only ever given
 * Permission lists, so shared-auth's check fits once widened.
 */
export function useCrumbPermissions(): (anyOf: readonly string[]) => boolean {
  const can = usePermissions();
  return useCallback((anyOf: readonly string[]) => can(anyOf as readonly Permission[]), [can]);
}
