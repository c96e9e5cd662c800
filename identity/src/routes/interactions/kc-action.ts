import type Provider from 'oidc-provider';
import { interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';

/**
 * Keycloak's application-initiated actions: an authorization request with
 * `kc_action=UPDATE_PASSWORD` makes the signed-in user change their password before the code is
 * issued, and the response says how it went (`kc_action_status=success|cancelled`). Other
 * actions are ignored, as Keycloak ignores an unknown one: the sign-in completes as usual.
 */
export const KC_ACTION_PARAM = 'kc_action';
export const KC_ACTION_STATUS_PARAM = 'kc_action_status';
export const UPDATE_PASSWORD_ACTION = 'UPDATE_PASSWORD';

/** Name of our interaction prompt showing the change-password form. */
export const UPDATE_PASSWORD_PROMPT = 'update_password';

export type KcActionStatus = 'success' | 'cancelled';

/** What the change-password page stores in the interaction result. */
export interface UpdatePasswordResult {
  status: KcActionStatus;
}

const resultOf = (ctx: KoaContextWithOIDC): Partial<UpdatePasswordResult> | undefined =>
  (ctx.oidc.result as { [UPDATE_PASSWORD_PROMPT]?: Partial<UpdatePasswordResult> } | undefined)?.[UPDATE_PASSWORD_PROMPT];

const asksToUpdatePassword = (ctx: KoaContextWithOIDC): boolean => ctx.oidc.params?.[KC_ACTION_PARAM] === UPDATE_PASSWORD_ACTION;

/** Asked after sign-in (the login prompt comes first for a user without a session). */
export function updatePasswordPrompt(): interactionPolicy.Prompt {
  const { Check, Prompt } = interactionPolicy;
  return new Prompt(
    { name: UPDATE_PASSWORD_PROMPT, requestable: false },
    new Check('kc_action_update_password', 'the application asked the End-User to update their password', (ctx) =>
      asksToUpdatePassword(ctx) && !resultOf(ctx)?.status ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT,
    ),
  );
}

/** Adds `kc_action_status` to the authorization response of a request that carried the action. */
export function reportKcActionStatus(provider: Provider): void {
  provider.on('authorization.success', (ctx: KoaContextWithOIDC, out?: Record<string, unknown>) => {
    const status = resultOf(ctx)?.status;
    if (out && asksToUpdatePassword(ctx) && status) out[KC_ACTION_STATUS_PARAM] = status;
  });
}
