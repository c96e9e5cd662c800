import { useCallback } from 'react';
import useSWR from 'swr';
import {
  EMAIL_CHANGE_REFUSALS,
  type EmailChangeConfirmed,
  type EmailChangePreview,
  type EmailChangeRefusalCode,
} from '@portal/contract';
import { useRuntimeConfig } from '../../../config/runtime-config';

/**
 * The answer of a confirmation-link call: what it shows, or why the link does not work. `failed`:
 * no answer the page can explain (network, server error); the user may try again.
 */
export type LinkAnswer<T> =
  { kind: 'ok'; data: T } | { kind: 'refused'; code: EmailChangeRefusalCode } | { kind: 'failed' };

const isRefusal = (value: unknown): value is EmailChangeRefusalCode =>
  (EMAIL_CHANGE_REFUSALS as readonly unknown[]).includes(value);

/**
 * POST /api/v1/email-change/{lookup|confirm} with the link's token. Plain fetch, not the signed-in
 * API client: the person opening the link need not be signed in; the token is the credential.
 */
async function postToken<T>(
  apiBaseUrl: string,
  path: 'lookup' | 'confirm',
  token: string,
): Promise<LinkAnswer<T>> {
  let response: Response;
  try {
    // Resolved against the page: '' (same origin, the host proxies /api) needs an absolute URL in fetch.
    const url = new URL(
      `${apiBaseUrl.replace(/\/+$/, '')}/api/v1/email-change/${path}`,
      window.location.href,
    );
    response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ token }),
      credentials: 'omit',
    });
  } catch (error) {
    console.error(`E-mail change ${path} failed`, error);
    return { kind: 'failed' };
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return { kind: 'ok', data: body as T };
  // A malformed token (too long) is refused by the schema with 400: for the reader, an invalid link.
  if (response.status === 400) return { kind: 'refused', code: 'invalid' };
  const code = (body as { code?: unknown } | null)?.code;
  return isRefusal(code) ? { kind: 'refused', code } : { kind: 'failed' };
}

/** What the link would confirm; looking does not use it up (mail scanners may look too). */
export function useEmailChangePreview(token: string | null) {
  const { apiBaseUrl } = useRuntimeConfig();
  return useSWR(
    token ? ['email-change-lookup', token] : null,
    () => postToken<EmailChangePreview>(apiBaseUrl, 'lookup', token!),
    {
      revalidateOnFocus: false,
      revalidateOnReconnect: false,
      shouldRetryOnError: false,
    },
  );
}

/** Uses the link: the account's e-mail becomes the new one. */
export function useConfirmEmailChange() {
  const { apiBaseUrl } = useRuntimeConfig();
  return useCallback(
    (token: string) => postToken<EmailChangeConfirmed>(apiBaseUrl, 'confirm', token),
    [apiBaseUrl],
  );
}
