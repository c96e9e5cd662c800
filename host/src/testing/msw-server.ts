import { setupTestServer as setupSharedTestServer } from '@portal/shared-ui/testing';
import { testResources } from './test-i18n';

/** The shared harness's MSW server, with the host's merged strings instead of shared-ui's alone. */
export const setupTestServer = () => setupSharedTestServer({ resources: testResources() });
