import type { App } from '../../../../../src/app';
import { DEEP_LINKING_CLAIM, LTI_CLAIM } from '../../../../../src/lti/validate-launch';
import { account, authHeader, xsrfHeaders, type TestApp } from '../../../../helper';
import { ltiLaunch, registerPlatform } from '../../../../lti/lti-fixtures';
import {
  createTestPlatform,
  ROLES,
  serveJwks,
  type LaunchShape,
  type TestPlatform,
} from '../../../../lti/platform-fixtures';
import type { Fixture } from '../../../../security/suite-shapes';

export const RETURN_URL = 'https://lms.test/deep-link/return?course=course-1';

/** The deep linking settings claim a platform sends (Deep Linking 2.0 §4.4.1). */
export const deepLinkingSettings = (overrides: Record<string, unknown> = {}) => ({
  deep_link_return_url: RETURN_URL,
  accept_types: ['ltiResourceLink'],
  accept_presentation_document_targets: ['iframe', 'window'],
  accept_multiple: false,
  auto_create: true,
  title: 'Week 3 practice',
  data: 'opaque-platform-data-42',
  ...overrides,
});

/**
 * An instructor's LtiDeepLinkingRequest through the real login and launch; answers the launchId
 * the tool redirected to /lti/deep-link with.
 */
export async function deepLinkLaunch(
  app: App,
  platform: TestPlatform,
  shape: Partial<LaunchShape> & { settings?: Record<string, unknown> } = {},
): Promise<string> {
  const { settings, ...rest } = shape;
  const to = await ltiLaunch(app, platform, {
    sub: 'lms-teacher',
    email: 'educator@demo.test',
    roles: [ROLES.instructor],
    ...rest,
    claims: {
      [`${LTI_CLAIM}message_type`]: 'LtiDeepLinkingRequest',
      [DEEP_LINKING_CLAIM]: deepLinkingSettings(settings),
      ...rest.claims,
    },
    omit: [`${LTI_CLAIM}resource_link`, `${LTI_CLAIM}custom`, ...(rest.omit ?? [])],
  });
  if (to.pathname !== '/lti/deep-link') throw new Error(`launch went to ${to.toString()}`);
  return to.searchParams.get('launchId')!;
}

const educator = account('educator', 'Demo Hospital');
const orgAdmin = account('org admin', 'Demo Hospital');

/**
 * The deep linking routes for the auth matrix (api/test/security): each control answers a fresh
 * deep linking request of the Demo Hospital educator's; the org admin, who holds the permission,
 * must not see or answer it.
 */
export function deepLinkFixtures(app: () => TestApp): Record<string, Fixture> {
  let setup: Promise<{ platform: TestPlatform; choice: Record<string, unknown> }> | null = null;
  const ctx = () =>
    (setup ??= (async () => {
      const { db } = app();
      const platform = await createTestPlatform('https://matrix-deep-link.test', 'dl-client');
      const jwks = await serveJwks(() => [platform.publicJwk]);
      await registerPlatform(db, platform, jwks.url, 'Demo Hospital');
      const ids = await db.query<{ product: number; leaf: number }>(
        `select c.product_id as product, c.id as leaf from product_categories c
          where c.simulation_configuration = 'radiography.lower-limb.knee'`,
      );
      const { product, leaf } = ids.rows[0]!;
      return { platform, choice: { productId: product, categoryId: leaf, mode: 'Desktop' } };
    })());
  const launch = async () => deepLinkLaunch(app().app, (await ctx()).platform);

  const route = (payload: boolean): Fixture => ({
    actor: educator,
    build: async () => ({
      url: `/api/v1/lti/deep-link/${await launch()}`,
      ...(payload ? { payload: (await ctx()).choice } : {}),
    }),
    foreign: async () => [
      {
        as: orgAdmin,
        what: "the Demo Hospital educator's deep linking request",
        req: {
          url: `/api/v1/lti/deep-link/${await launch()}`,
          ...(payload ? { payload: (await ctx()).choice } : {}),
        },
      },
    ],
  });

  return {
    'GET /api/v1/lti/deep-link/:launchId': route(false),
    'POST /api/v1/lti/deep-link/:launchId': route(true),
    'POST /api/lti/deep-link/:launchId/return': {
      // Public: the proof is a JWT the API signed for that launch (the control answers one).
      build: async () => {
        const launchId = await launch();
        const res = await app().app.inject({
          method: 'POST',
          url: `/api/v1/lti/deep-link/${launchId}`,
          headers: { ...(await authHeader(educator.sub)), ...xsrfHeaders() },
          payload: (await ctx()).choice,
        });
        const { jwt } = res.json<{ jwt: string }>();
        return {
          url: `/api/lti/deep-link/${launchId}/return`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ JWT: jwt }).toString(),
        };
      },
    },
  };
}
