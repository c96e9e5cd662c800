import { setupServer } from 'msw/node';
import { initTestI18n } from './test-i18n';

/** One MSW server per test file; a request without a handler fails the test. */
export function setupTestServer() {
  const server = setupServer();
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    await initTestI18n();
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}
