// This remote's binding of the shared harness: its routes where the host mounts them.
import * as authTesting from '@portal/shared-auth/testing';
import { createRemoteHarness } from '@portal/shared-ui/testing';
import routes from '../routes';
import { MOUNT_PATH } from './mount-path';

export const { renderRemote, currentUser } = createRemoteHarness({ routes, mountPaths: [MOUNT_PATH], auth: authTesting });
