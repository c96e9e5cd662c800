import { TABLE_PAGE_SIZE } from '@portal/contract';

/** docs/requirements.md#limits-and-defaults: tables show 10 rows a page. */
export const ADMIN_PAGE_SIZE = TABLE_PAGE_SIZE;

/** The `license_duration` lookup's code for a licence that has not started (docs/requirements.md#administration). */
export const INACTIVE_DURATION_CODE = 'inactive';

/** Only CSV files are users files (docs/requirements.md#file-rules). */
export const USER_FILE_EXTENSIONS = ['csv'] as const;
export const USER_UPLOAD_URL = '/api/v1/file/upload/user';

/** Configuration and translation files are JSON (docs/requirements.md#file-rules). */
export const CONFIG_FILE_EXTENSIONS = ['json'] as const;
export const CONFIG_UPLOAD_URL = '/api/v1/file/upload/sim-config';
export const TRANSLATION_UPLOAD_URL = '/api/v1/file/upload/sim-config-translation';
export const INSTALLER_UPLOAD_URL = '/api/v1/file/upload/sim-installation-file';
