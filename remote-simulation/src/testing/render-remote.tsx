// This remote's binding of the shared harness: its routes wherever the host mounts them
// (its entry in the remote manifest).
import * as authTesting from '@portal/shared-auth/testing';
import { createRemoteHarness } from '@portal/shared-ui/testing';
import routes from '../routes';
import { REMOTE } from '../config/remote';

export const { renderRemote, currentUser } = createRemoteHarness({
  routes,
  remote: REMOTE,
  auth: authTesting,
});
export { TEST_LAUNCH_SETTINGS } from '@portal/shared-ui/testing';
