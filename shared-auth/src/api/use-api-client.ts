import { useContext } from 'react';
import { ApiClientContext } from '../auth/auth-context';
import type { ApiClient } from './create-api-client';

/** The API client of the surrounding AuthProvider (token refresh, XSRF, docs/requirements.md#calls results). */
export function useApiClient(): ApiClient {
  const client = useContext(ApiClientContext);
  if (!client) throw new Error('useApiClient must be used inside <AuthProvider>');
  return client;
}
