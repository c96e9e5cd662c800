import { useCallback } from 'react';
import { ROLE_CODES, type LookupItem } from '@portal/contract';
import { useTranslation } from '@portal/shared-ui';

/** docs/requirements.md#data: role names are shown through the userRoles translations, the name itself as fallback. */
export function useRoleLabel(): (roleName: string) => string {
  const { t } = useTranslation('admin');
  return useCallback((roleName: string) => t(`userRoles.${roleName}`, { defaultValue: roleName }), [t]);
}

/**
 * Which `roles` lookup entry is the system administrator: by its stable code, never its display
 * name. Used only to know which choice of the role select needs a confirmation, never to decide
 * what a user may do.
 */
export const isSysAdminRole = (role: Pick<LookupItem, 'code'> | undefined): boolean => role?.code === ROLE_CODES.sysAdmin;
