import { useCallback } from 'react';
import type { LookupItem } from '@portal/contract';
import { useTranslation } from '@portal/shared-ui';
import { SYS_ADMIN_ROLE_NAME } from '../config/constants';

/** Spec §3: role names are shown through the userRoles translations, the name itself as fallback. */
export function useRoleLabel(): (roleName: string) => string {
  const { t } = useTranslation();
  return useCallback((roleName: string) => t(`admin.userRoles.${roleName}`, { defaultValue: roleName }), [t]);
}

/** Which `roles` lookup entry is the system administrator (see SYS_ADMIN_ROLE_NAME). */
export const isSysAdminRole = (role: Pick<LookupItem, 'name'> | undefined): boolean =>
  role?.name.trim().toLowerCase() === SYS_ADMIN_ROLE_NAME;
