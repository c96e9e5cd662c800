// Stand-alone page for development (`pnpm --filter @portal/remote-simulation dev`), shared by every
// remote: see @portal/shared-ui/standalone. Production never loads this file.
import * as sharedAuth from '@portal/shared-auth';
import { startStandalone } from '@portal/shared-ui/standalone';
import routes from './routes';
import { LTI_MOUNT_PATH, MOUNT_PATH } from './testing/mount-path';

// The host mounts the routes twice: in its layout and, for learning-platform launches, bare.
void startStandalone({ auth: sharedAuth, routes, mountPaths: [MOUNT_PATH, LTI_MOUNT_PATH] });
