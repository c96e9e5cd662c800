export const MOUNT_PATH = '/simulation';
export const LTI_MOUNT_PATH = '/lti/simulation';
export const REMOTE_NAME = 'simulation';
