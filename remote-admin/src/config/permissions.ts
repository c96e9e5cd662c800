import type { Permission } from '@portal/contract';

/** docs/requirements.md#administration, #permissions: the whole remote; without it every admin URL is "page not found". */
export const ADMIN_SECTION: readonly Permission[] = ['global.client_access_admin_section'];

export const VIEW_ORGANISATIONS: readonly Permission[] = ['global.view_org'];
export const CREATE_ORGANISATION: readonly Permission[] = ['global.create_org'];
export const UPDATE_ORGANISATION: readonly Permission[] = ['global.update_org'];
/**
 * The API lets only global administrators switch an organisation on or off; they are the ones who
 * may create organisations, so the active checkbox follows that permission rather than a role name.
 */
export const ACTIVATE_ORGANISATION: readonly Permission[] = ['global.create_org'];

export const VIEW_LICENCES: readonly Permission[] = ['global.view_license_block'];
export const CREATE_LICENCE: readonly Permission[] = ['global.create_license_block'];
export const UPDATE_LICENCE: readonly Permission[] = ['global.update_license_block'];
export const UNASSIGN_LICENCE: readonly Permission[] = ['global.unassign_license'];

export const VIEW_USERS: readonly Permission[] = ['global.view_user'];
export const CREATE_USERS: readonly Permission[] = ['global.create_user'];
export const UPDATE_USER: readonly Permission[] = ['global.update_user'];
export const REMOVE_USER: readonly Permission[] = ['global.remove_user'];

/** Products, their configurations and installer versions (the API asks the same). */
export const MANAGE_SIM_CONFIG: readonly Permission[] = ['global.manage_sim_config'];
/** A product's configuration JSON Schema (the API asks the same; only global administrators hold it). */
export const MANAGE_VALIDATION_SCHEMA: readonly Permission[] = ['global.manage_validation_schema'];
/**
 * docs/requirements.md#permissions: downloads use the user permissions, not the product one — the API's simulation-download
 * routes ask for them (reading view_user, adding create_user, changing update_user), and so do
 * the Downloads tab, crumb, list and form here.
 */
export const VIEW_DOWNLOADS: readonly Permission[] = ['global.view_user'];
export const CREATE_DOWNLOAD: readonly Permission[] = ['global.create_user'];
export const UPDATE_DOWNLOAD: readonly Permission[] = ['global.update_user'];
/**
 * A version is offered to every organisation entitled to the product, so the API lets only global
 * administrators add or change one (its isGlobalAdmin: whoever may create organisations), on top
 * of the user permission above. Both are needed: see `useCanChangeDownloads`.
 */
export const CHANGE_DOWNLOADS_GLOBALLY: readonly Permission[] = ['global.create_org'];
/** Notifications are about licences: whoever may see an organisation's licences sees them. */
export const VIEW_NOTIFICATIONS: readonly Permission[] = VIEW_LICENCES;
/**
 * Learning-platform (LTI) registrations, registration URLs and the tool's URLs: the API lets only
 * global administrators (global.create_org) at them — a registration decides which organisation a
 * platform's users join.
 */
export const MANAGE_LEARNING_PLATFORMS: readonly Permission[] = ['global.create_org'];
