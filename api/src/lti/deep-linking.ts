import { createHash, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import {
  LTI_DEEP_LINK_MESSAGES,
  LTI_LAUNCH_MAX_AGE_SECONDS,
  LTI_MESSAGES,
  type LtiDeepLinkAnswer,
  type LtiDeepLinkInput,
  type LtiDeepLinkProduct,
  type LtiDeepLinkRequest,
  type ProductCategory,
  type SimulationMode,
} from '@portal/contract';
import type { Db, Queryable } from '../db/driver';
import { ApiError, badRequest, notFound } from '../lib/http-errors';
import { createLtiRepository } from '../repositories/lti-repository';
import { createProductRepository } from '../repositories/product-repository';
import { runUnitOfWork } from '../services/unit-of-work';
import type { ToolKeys } from './tool-keys';
import { LTI_CLAIM, portalRoleFor } from './validate-launch';

/**
 * Deep Linking 2.0 (issue #10 point 5): an instructor's LtiDeepLinkingRequest, recorded by the
 * launch, is answered once with a signed LtiDeepLinkingResponse holding one `ltiResourceLink` to a
 * simulation (product, leaf category, mode) the platform's organisation is licensed for.
 */

const DL_CLAIM = 'https://purl.imsglobal.org/spec/lti-dl/claim/';

/** The response JWT's lifetime: the browser posts it to the platform right away. */
export const DEEP_LINK_RESPONSE_TTL_SECONDS = 600;

/**
 * Where the answer is recorded inside the stored settings claim. The claim's own members are
 * snake_case names of the specification, so this one cannot collide with them; it holds the
 * SHA-256 of the JWT handed out, which the return page checks before posting anything.
 */
const ANSWER_KEY = 'portal_answer';

const launchError = (status: number, message: string) =>
  new ApiError(status, { launchId: [message] });

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

const isHttpUrl = (v: unknown): v is string => typeof v === 'string' && /^https?:\/\/\S+$/i.test(v);

const stringArray = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/**
 * The caller's open deep linking request, or the 4xx saying why not. Someone else's launch is as
 * unknown as one that never was (404), as for sessions (services/sessions/create-session.ts).
 */
async function openRequest(q: Queryable, launchId: string, userId: string, forUpdate = false) {
  const row = await createLtiRepository(q).deepLinkRequest(launchId, forUpdate);
  if (!row || row.user_id.toLowerCase() !== userId.toLowerCase()) throw notFound();
  if (row.message_type !== 'LtiDeepLinkingRequest' || !row.settings) {
    throw badRequest({ launchId: [LTI_DEEP_LINK_MESSAGES.notDeepLinking] });
  }
  if (Number(row.age) > LTI_LAUNCH_MAX_AGE_SECONDS) {
    throw badRequest({ launchId: [LTI_MESSAGES.launchExpired] });
  }
  if (row.settings[ANSWER_KEY] !== undefined) {
    throw launchError(409, LTI_DEEP_LINK_MESSAGES.answered);
  }
  // The platform says who may pick content in this course; a learner's request is not honoured
  // even when the portal user is an educator elsewhere.
  if (portalRoleFor(row.roles) !== 'educator') {
    throw launchError(403, LTI_DEEP_LINK_MESSAGES.notInstructor);
  }
  const accept = row.settings.accept_types;
  if (
    (accept !== undefined && !stringArray(accept).includes('ltiResourceLink')) ||
    !isHttpUrl(row.settings.deep_link_return_url)
  ) {
    throw badRequest({ launchId: [LTI_DEEP_LINK_MESSAGES.notDeepLinking] });
  }
  return { ...row, settings: row.settings };
}

/** The path of display names from a root to the category, when it is a leaf of the tree. */
function leafPath(
  tree: readonly ProductCategory[],
  categoryId: number,
): { path: string[]; leaf: ProductCategory } | { path: null; leaf: ProductCategory | null } {
  for (const node of tree) {
    if (node.id === categoryId) {
      return node.children.length === 0
        ? { path: [node.displayName], leaf: node }
        : { path: null, leaf: node };
    }
    const below = leafPath(node.children, categoryId);
    if (below.leaf) {
      return below.path ? { path: [node.displayName, ...below.path], leaf: below.leaf } : below;
    }
  }
  return { path: null, leaf: null };
}

/** Mode names as the catalogue shows them; the same words in both languages of the portal. */
const MODE_LABEL: Record<SimulationMode, string> = { VR: 'VR', Desktop: 'Desktop' };

export function createDeepLinking(db: Db, toolKeys: ToolKeys, portalUrl: string) {
  const products = createProductRepository(db);
  const launchUrl = `${portalUrl}/api/lti/launch`;

  async function pickable(organisationId: number, language: string, today: Date) {
    const modes = await createLtiRepository(db).licensedModes(organisationId, today);
    const list = await products.listByIds([...modes.keys()], language);
    return list.map((p): LtiDeepLinkProduct => ({ ...p, modes: modes.get(p.id) ?? [] }));
  }

  return {
    async describe(
      launchId: string,
      user: { id: string; language: string },
      today = new Date(),
    ): Promise<LtiDeepLinkRequest> {
      const row = await openRequest(db, launchId, user.id);
      const title = row.settings.title;
      return {
        launchId: row.id,
        platform: { issuer: row.issuer, organisationName: row.organisation_name },
        acceptTypes: stringArray(row.settings.accept_types),
        title: typeof title === 'string' && title.trim() !== '' ? title : null,
        products: await pickable(row.organisation_id, user.language, today),
      };
    },

    /**
     * Checks the choice, signs the answer and marks the request answered, in one transaction
     * holding the launch's row: of two answers racing, the second finds it answered.
     */
    async answer(
      launchId: string,
      input: LtiDeepLinkInput,
      user: { id: string; language: string },
      today = new Date(),
    ): Promise<LtiDeepLinkAnswer> {
      // Outside the transaction: on the embedded database the transaction holds the one connection.
      const { kid, key } = await toolKeys.signingKey();
      return runUnitOfWork(db, async ({ q: tx }) => {
        const row = await openRequest(tx, launchId, user.id, true);
        const modes = await createLtiRepository(tx).licensedModes(row.organisation_id, today);
        const productModes = modes.get(input.productId);
        if (!productModes)
          throw badRequest({ productId: [LTI_DEEP_LINK_MESSAGES.unlicensedProduct] });
        const [product] = await createProductRepository(tx).listByIds(
          [input.productId],
          user.language,
        );
        if (!product) throw badRequest({ productId: [LTI_DEEP_LINK_MESSAGES.unlicensedProduct] });
        const tree = await createProductRepository(tx).categoryTree(input.productId, user.language);
        const { path, leaf } = leafPath(tree, input.categoryId);
        if (!path || !leaf) throw badRequest({ categoryId: [LTI_DEEP_LINK_MESSAGES.notLeaf] });
        const configuration = leaf.simulationConfiguration;
        if (!configuration) {
          throw badRequest({ categoryId: [LTI_DEEP_LINK_MESSAGES.noConfiguration] });
        }
        if (!productModes.includes(input.mode)) {
          throw badRequest({ mode: [LTI_DEEP_LINK_MESSAGES.unlicensedMode] });
        }

        const title = `${[product.name, ...path].join(' › ')} — ${MODE_LABEL[input.mode]}`;
        const settings = row.settings;
        const link: Record<string, unknown> = {
          type: 'ltiResourceLink',
          title,
          url: launchUrl,
          // What the launch forwards to the host's /lti/launch (routes/api/lti/index.ts), which
          // starts exactly this simulation.
          custom: {
            configuration,
            protocol: product.protocol,
            productId: String(product.id),
            mode: input.mode,
          },
        };
        // Deep Linking 2.0 §4.4.2: `accept_lineitem: false` means the platform ignores them.
        if (settings.accept_lineitem !== false) {
          link.lineItem = {
            scoreMaximum: 100,
            label: title,
            resourceId: `${product.code}:${configuration}:${input.mode}`,
            tag: 'simulation-score',
          };
        }
        const claims: Record<string, unknown> = {
          nonce: randomBytes(24).toString('base64url'),
          [`${LTI_CLAIM}deployment_id`]: row.deployment_id,
          [`${LTI_CLAIM}message_type`]: 'LtiDeepLinkingResponse',
          [`${LTI_CLAIM}version`]: '1.3.0',
          [`${DL_CLAIM}content_items`]: [link],
        };
        if (typeof settings.data === 'string') claims[`${DL_CLAIM}data`] = settings.data;

        const jwt = await new SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
          .setIssuer(row.client_id)
          .setAudience(row.issuer)
          .setIssuedAt()
          .setExpirationTime(`${DEEP_LINK_RESPONSE_TTL_SECONDS}s`)
          .sign(key);

        await createLtiRepository(tx).recordDeepLinkAnswer(row.id, ANSWER_KEY, sha256(jwt));
        return { returnUrl: String(settings.deep_link_return_url), jwt };
      });
    },

    /**
     * The return URL for a JWT this tool handed out for the launch, while it is valid; null for
     * anything else, so the return page never posts what the portal did not sign for it.
     */
    async returnUrlFor(launchId: string, jwt: string): Promise<string | null> {
      const row = await createLtiRepository(db).deepLinkAnswer(
        launchId,
        ANSWER_KEY,
        DEEP_LINK_RESPONSE_TTL_SECONDS,
      );
      const answer = row?.settings?.[ANSWER_KEY] as { sha256?: unknown } | undefined;
      if (!row?.fresh || answer?.sha256 !== sha256(jwt)) return null;
      const url = row.settings?.deep_link_return_url;
      return isHttpUrl(url) ? url : null;
    },
  };
}

export type DeepLinking = ReturnType<typeof createDeepLinking>;
