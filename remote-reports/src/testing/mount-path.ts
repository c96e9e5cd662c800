export const MOUNT_PATH = '/report';
export const REMOTE_NAME = 'reports';
