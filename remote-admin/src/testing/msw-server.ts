// Tests bundle this remote's strings, which the page loads over HTTP from the remote's origin.
import { setupRemoteTestServer } from '@portal/shared-ui/testing';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { REMOTE } from '../config/remote';

export const setupTestServer = () => setupRemoteTestServer(REMOTE, { en, de });
