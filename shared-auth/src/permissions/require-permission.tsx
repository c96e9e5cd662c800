import type { ReactNode } from 'react';
import type { Permission } from '@portal/contract';
import { usePermissions } from './use-permissions';

export interface RequirePermissionProps {
  /** Passes when the user holds any one of these (docs/requirements.md#permissions). */
  anyOf: readonly Permission[];
  /** Rendered otherwise; nothing by default (routes pass a not-found view). */
  fallback?: ReactNode;
  children?: ReactNode;
}

export function RequirePermission({ anyOf, fallback = null, children }: RequirePermissionProps) {
  const can = usePermissions();
  return <>{can(anyOf) ? children : fallback}</>;
}
