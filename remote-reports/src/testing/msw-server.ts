import { setupServer } from 'msw/node';
import { initI18n } from '@portal/shared-ui';
import sharedEn from '@portal/shared-ui/locales/en.json';

/** One MSW server per test file; a request without a handler fails the test. */
export function setupTestServer() {
  const server = setupServer();
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    await initI18n({ lng: 'en', resources: { en: { translation: sharedEn } } });
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}
