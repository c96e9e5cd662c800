export const MOUNT_PATH = '/simulation';
export const REMOTE_NAME = 'simulation';
