import { useCallback } from 'react';
import type { LicensedUser } from '@portal/contract';
import { useTranslation } from '@portal/shared-ui';

export type NamedUser = Pick<LicensedUser, 'fullName' | 'platformUser'>;

/**
 * How the lists name a user: by name, or — for a user a learning platform created without any
 * name (issue #22 point 3) — as a learner from that platform with the platform's user id, so two
 * such users stay apart.
 */
export function useUserName(): (user: NamedUser) => string {
  const { t } = useTranslation('admin');
  return useCallback(
    (user: NamedUser) =>
      user.fullName.trim() !== '' || !user.platformUser
        ? user.fullName
        : t('user.platformLearner', { platform: user.platformUser.platform, id: user.platformUser.id }),
    [t],
  );
}
