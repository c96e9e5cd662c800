export const MOUNT_PATH = '/admin';
export const REMOTE_NAME = 'admin';
