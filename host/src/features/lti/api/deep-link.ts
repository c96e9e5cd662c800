import { useCallback } from 'react';
import type {
  LtiDeepLinkAnswer,
  LtiDeepLinkInput,
  LtiDeepLinkRequest,
  ProductCategory,
} from '@portal/contract';
import { useApi, useApiClient } from '@portal/shared-auth';

export const deepLinkKey = (launchId: string) =>
  `/api/v1/lti/deep-link/${encodeURIComponent(launchId)}`;

/**
 * Where the picker posts the signed answer: an API page on the host's own origin (the host proxies
 * /api), which posts it on to the platform — the host's CSP lets forms go to its own origin only.
 */
export const deepLinkReturnAction = (launchId: string) =>
  `/api/lti/deep-link/${encodeURIComponent(launchId)}/return`;

/** The open deep linking request: platform, accepted types, the products that may be linked. */
export function useDeepLinkRequest(launchId: string | null) {
  return useApi<LtiDeepLinkRequest>(launchId ? deepLinkKey(launchId) : null, {
    revalidateOnFocus: false,
  });
}

/** The category tree the simulation area shows, in the page's language. */
export function useCategoryTree(productId: number | null, language: string) {
  return useApi<ProductCategory[]>(
    productId === null
      ? null
      : `/api/v1/product/${productId}/category?${new URLSearchParams({ language })}`,
    { revalidateOnFocus: false },
  );
}

/** POST the choice; 200 answers the signed LtiDeepLinkingResponse. */
export function useAnswerDeepLink(launchId: string) {
  const api = useApiClient();
  return useCallback(
    (input: LtiDeepLinkInput) =>
      api.post<LtiDeepLinkAnswer>(deepLinkKey(launchId), input, { successStatus: 200 }),
    [api, launchId],
  );
}
