// The harness is shared by every remote (`@portal/shared-ui/testing`); tests bundle this remote's
// namespace, which the page loads over HTTP from the remote's origin.
import { setupTestServer as setupSharedTestServer } from '@portal/shared-ui/testing';
import sharedEn from '@portal/shared-ui/locales/en.json';
import sharedDe from '@portal/shared-ui/locales/de.json';
import en from '../../locales/en.json';
import de from '../../locales/de.json';
import { NAMESPACE } from '../i18n';

export const setupTestServer = () =>
  setupSharedTestServer({
    resources: {
      en: { translation: sharedEn, [NAMESPACE]: en },
      de: { translation: sharedDe, [NAMESPACE]: de },
    },
  });
