// The harness is shared by every remote (`@portal/shared-ui/testing`).
export { setupTestServer } from '@portal/shared-ui/testing';
