// Stand-alone page for development (`pnpm --filter @portal/remote-simulation dev`), shared by every
// remote: see @portal/shared-ui/standalone. Production never loads this file.
import * as sharedAuth from '@portal/shared-auth';
import { startStandalone } from '@portal/shared-ui/standalone';
import routes from './routes';
import { REMOTE } from './config/remote';

void startStandalone({ auth: sharedAuth, routes, remote: REMOTE });
