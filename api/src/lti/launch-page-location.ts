import { LTI_FRAME_KEY_FRAGMENT } from '@portal/contract';

/**
 * The host's `/lti/launch` query for a resource link launch: the launchId, plus the launch
 * parameters of docs/requirements.md#data and the mode when the link's custom parameters name
 * them (the launch screen otherwise starts the LTI default mode).
 */
export function launchPageQuery(
  launchId: string,
  custom: Record<string, string>,
  idp?: string,
): URLSearchParams {
  const query = new URLSearchParams({ launchId });
  // The broker's alias: the page signs in by the launch (kc_idp_hint) instead of a password.
  if (idp !== undefined) query.set('idp', idp);
  for (const name of ['configuration', 'protocol', 'productId', 'mode'] as const) {
    const value = custom[name];
    if (typeof value === 'string') query.set(name, value);
  }
  return query;
}

/**
 * `/lti/launch?…`, with the launch page's frame key in the fragment when there is one: a fragment
 * reaches no server log and no Referer, and the page removes it once read.
 */
export function launchPagePath(
  launchId: string,
  custom: Record<string, string>,
  { frameKey, idp }: { frameKey?: string; idp?: string } = {},
): string {
  const path = `/lti/launch?${launchPageQuery(launchId, custom, idp)}`;
  return frameKey === undefined
    ? path
    : `${path}#${new URLSearchParams({ [LTI_FRAME_KEY_FRAGMENT]: frameKey })}`;
}
