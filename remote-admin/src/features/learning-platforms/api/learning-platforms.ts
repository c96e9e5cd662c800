import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type {
  LtiPlatform,
  LtiPlatformInput,
  LtiRegistrationToken,
  LtiToolConfiguration,
  PagedResult,
} from '@portal/contract';
import { useApi, useApiClient, withQuery } from '@portal/shared-auth';
import type { PagedListParams } from '@portal/shared-ui/widgets';
import { isListOf, listPath } from '../../../lib/list-query';

export const PLATFORMS_PATH = '/api/v1/lti/platform';
export const TOOL_PATH = '/api/v1/lti/tool';

export const platformPath = (platformId: number) =>
  `${PLATFORMS_PATH}/${encodeURIComponent(String(platformId))}`;
export const registrationTokenPath = (organisationId: number) =>
  `/api/v1/organisation/${encodeURIComponent(String(organisationId))}/lti/registration-token`;

/** GET /api/v1/lti/platform?organisation={id}: one page of the organisation's platforms. */
export function usePlatforms(organisationId: number, params: PagedListParams) {
  return useApi<PagedResult<LtiPlatform>>(
    withQuery(listPath(PLATFORMS_PATH, params), { organisation: organisationId }),
    {
      keepPreviousData: true,
    },
  );
}

/** GET /api/v1/lti/platform/{id}. */
export function usePlatform(platformId: number) {
  return useApi<LtiPlatform>(platformPath(platformId));
}

/** GET /api/v1/lti/tool: the tool's URLs for registering it by hand. */
export function useToolConfiguration() {
  return useApi<LtiToolConfiguration>(TOOL_PATH);
}

/** POST /api/v1/lti/platform (201); the cached list pages are revalidated. */
export function useCreatePlatform() {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: LtiPlatformInput) => {
      const result = await client.post<LtiPlatform>(PLATFORMS_PATH, input);
      if (result.isSuccess) void mutate(isListOf(PLATFORMS_PATH));
      return result;
    },
    [client, mutate],
  );
}

/** PUT /api/v1/lti/platform/{id}; the saved platform replaces the cached one. */
export function useUpdatePlatform(platformId: number) {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: LtiPlatformInput) => {
      const key = platformPath(platformId);
      const result = await client.put<LtiPlatform>(key, input);
      if (result.isSuccess) {
        await mutate(key, result.data, { revalidate: false });
        void mutate(isListOf(PLATFORMS_PATH));
      }
      return result;
    },
    [client, mutate, platformId],
  );
}

/** DELETE /api/v1/lti/platform/{id} (204), with its launches. */
export function useDeletePlatform() {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (platformId: number) => {
      const result = await client.del(platformPath(platformId));
      if (result.isSuccess) void mutate(isListOf(PLATFORMS_PATH));
      return result;
    },
    [client, mutate],
  );
}

/** POST /api/v1/organisation/{id}/lti/registration-token (201): a one-time registration URL. */
export function useCreateRegistrationUrl(organisationId: number) {
  const client = useApiClient();
  return useCallback(
    () => client.post<LtiRegistrationToken>(registrationTokenPath(organisationId)),
    [client, organisationId],
  );
}
