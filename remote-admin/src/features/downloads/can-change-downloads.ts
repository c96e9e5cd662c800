import { usePermissions } from '@portal/shared-auth';
import { CHANGE_DOWNLOADS_GLOBALLY, CREATE_DOWNLOAD, UPDATE_DOWNLOAD } from '../../config/permissions';

/**
 * Whether the user may add and change installer versions: the user permission the API's route
 * declares and, as the route also checks, global administration. An organisation's administrators
 * hold the user permissions but would only get a 403.
 */
export function useCanChangeDownloads(): { create: boolean; update: boolean } {
  const can = usePermissions();
  const global = can(CHANGE_DOWNLOADS_GLOBALLY);
  return { create: global && can(CREATE_DOWNLOAD), update: global && can(UPDATE_DOWNLOAD) };
}
