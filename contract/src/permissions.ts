/** Every permission of docs/requirements.md#permissions. Screens and routes ask for these, never for role names. */
export const PERMISSIONS = [
  'global.client_access_admin_section',
  'global.create_org',
  'global.update_org',
  'global.view_org',
  'global.view_user',
  'global.create_user',
  'global.update_user',
  'global.remove_user',
  'global.manage_sim_config',
  'global.access_sims',
  'global.export_user_data',
  'global.contact_vmc_support',
  'global.manage_validation_schema',
  'global.manage_report_data',
  'global.view_all_reports',
  'global.view_org_reports',
  'global.view_own_reports',
  'global.view_license_block',
  'global.create_license_block',
  'global.update_license_block',
  'global.unassign_license',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** A check passes if the user holds any one of the permissions asked for (docs/requirements.md#permissions). */
export function hasAnyPermission(
  held: readonly string[] | undefined,
  required: readonly Permission[],
): boolean {
  if (required.length === 0) return true;
  if (!held) return false;
  return required.some((p) => held.includes(p));
}
