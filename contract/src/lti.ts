import { Type, type Static } from '@sinclair/typebox';
import { MAX_INT4, PagedQuery } from './common';
import { LTI_FRAME_ORIGINS_MAX } from './lti-registration';
import { Product, SimulationMode } from './product';

/**
 * Codes of `/lti/error?error=…` (docs/requirements.md#outside-the-layout, #errors-and-messages). The host shows its permission message for
 * PERMISSION_DENIED and the generic LTI message for every other code; the codes tell support
 * which check refused the launch.
 */
export const LTI_ERROR_CODES = [
  /** The user's role or licence does not allow the launch (no seat, inactive organisation). */
  'PERMISSION_DENIED',
  /** The login or launch request lacks a parameter or is not what the LTI specification says. */
  'INVALID_REQUEST',
  /** `state` unknown, used before, older than 10 minutes, or not the browser's state cookie. */
  'INVALID_STATE',
  /** The id_token is not a JWT, not RS256, has no or an unknown `kid`, or its signature fails. */
  'INVALID_TOKEN',
  /** `iss`, `aud`, `azp`, `exp`, `iat` or `nonce` do not match. */
  'INVALID_CLAIMS',
  /** The deployment is not registered for the platform. */
  'UNKNOWN_DEPLOYMENT',
  /** version, message_type, roles, sub or resource_link.id missing or wrong. */
  'INVALID_LTI_MESSAGE',
  /**
   * The platform's user cannot become a portal user: the e-mail is another organisation's, or an
   * existing account's while the registration is not marked "platform verifies e-mail addresses".
   */
  'USER_NOT_LINKED',
  /** The platform's key server could not be reached. */
  'PLATFORM_UNAVAILABLE',
] as const;
export type LtiErrorCode = (typeof LTI_ERROR_CODES)[number];

/**
 * Refusal reasons the launch passes to `/lti/error` as `reason` beside `error`, because the page
 * tells someone what to do about them: `email_unverified_platform` — the launch's e-mail is an
 * existing portal account's, and the registration is not marked "platform verifies e-mail
 * addresses" (an administrator links the account or marks the platform).
 */
export const LTI_SHOWN_REASONS = ['email_unverified_platform'] as const;
export type LtiShownReason = (typeof LTI_SHOWN_REASONS)[number];

/** The message types the tool accepts (LTI Core 1.3, Deep Linking 2.0). */
export const LTI_MESSAGE_TYPES = ['LtiResourceLinkRequest', 'LtiDeepLinkingRequest'] as const;
export type LtiMessageType = (typeof LTI_MESSAGE_TYPES)[number];

/** Longest URL a platform registration may hold. */
export const LTI_URL_MAX_LENGTH = 2000;

const HttpUrl = Type.String({
  minLength: 8,
  maxLength: LTI_URL_MAX_LENGTH,
  pattern: '^https?://[^\\s]+$',
});

export const LtiPlatformIdParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_INT4 }),
});
export type LtiPlatformIdParams = Static<typeof LtiPlatformIdParams>;

/**
 * A learning platform registered with the tool (LTI 1.3): the issuer (`iss` of its tokens), the
 * client id it gave the portal, its OIDC auth, token and key endpoints, the deployment ids it may
 * launch from, and the organisation whose users its users become.
 */
export const LtiPlatform = Type.Object({
  id: Type.Integer(),
  issuer: Type.String(),
  clientId: Type.String(),
  authLoginUrl: Type.String(),
  accessTokenUrl: Type.String(),
  jwksUrl: Type.String(),
  deploymentIds: Type.Array(Type.String()),
  organisationId: Type.Integer(),
  organisationName: Type.String(),
  /**
   * An administrator vouched that the platform verifies its users' e-mail addresses: only then may
   * a launch link to an existing portal account by its e-mail (issue #22 point 3).
   */
  verifiesEmail: Type.Boolean(),
  /**
   * Further origins whose pages show the tool in a frame (hosted Canvas: the school's Canvas
   * address), beside the issuer's and the authorization endpoint's.
   */
  frameOrigins: Type.Array(Type.String()),
  /** The `aud` of the tool's client assertion; null: the access token URL (Brightspace differs). */
  tokenAudience: Type.Union([Type.String(), Type.Null()]),
  /** When the platform was registered (by hand or by dynamic registration). */
  createdAt: Type.String({ format: 'date-time' }),
});
export type LtiPlatform = Static<typeof LtiPlatform>;

/**
 * POST /api/v1/lti/platform and PUT /api/v1/lti/platform/{id} (global administrators). Issuer and
 * client id together are unique: `{clientId: ["This platform is already registered with this
 * client id."]}`; an unknown organisation is `{organisationId: ["Select a valid choice."]}`.
 */
export const LtiPlatformInput = Type.Object(
  {
    issuer: HttpUrl,
    clientId: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }),
    authLoginUrl: HttpUrl,
    accessTokenUrl: HttpUrl,
    jwksUrl: HttpUrl,
    deploymentIds: Type.Array(Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }), {
      maxItems: 100,
    }),
    organisationId: Type.Integer({ minimum: 1, maximum: MAX_INT4 }),
    /** Absent is false: linking by e-mail is never switched on by omission. */
    verifiesEmail: Type.Optional(Type.Boolean()),
    /** Origins only (https, or http on localhost), checked by the API; absent is none. */
    frameOrigins: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: LTI_FRAME_ORIGINS_MAX }),
    ),
    /** Absent, null or "": the access token URL is the audience. */
    tokenAudience: Type.Optional(Type.Union([Type.Literal(''), HttpUrl, Type.Null()])),
  },
  { additionalProperties: false },
);
export type LtiPlatformInput = Static<typeof LtiPlatformInput>;

export const LTI_PLATFORM_ORDERING_FIELDS = [
  'id',
  'issuer',
  'clientId',
  'organisationName',
] as const;

/** GET /api/v1/lti/platform: paged; `filter` searches issuer and client id. */
export const LtiPlatformListQuery = Type.Composite(
  [
    PagedQuery,
    Type.Object({ organisation: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INT4 })) }),
  ],
  { additionalProperties: false },
);
export type LtiPlatformListQuery = Static<typeof LtiPlatformListQuery>;

/** GET /api/lti/jwks: the tool's public keys (RFC 7517). */
export const LtiJwks = Type.Object({
  keys: Type.Array(
    Type.Object(
      {
        kty: Type.String(),
        kid: Type.String(),
        alg: Type.String(),
        use: Type.String(),
        n: Type.String(),
        e: Type.String(),
      },
      { additionalProperties: false },
    ),
  ),
});
export type LtiJwks = Static<typeof LtiJwks>;

/**
 * The query the tool redirects the browser to after a valid launch: the host's `/lti/launch`
 * (docs/requirements.md#data (Launch parameters)). `configuration`, `protocol` and `productId` come from the resource
 * link's custom parameters of the same names.
 */
export const LTI_LAUNCH_PARAMETERS = [
  'launchId',
  'configuration',
  'protocol',
  'productId',
] as const;

/** How long after the launch a session may still be started with its `ltiLaunchId`. */
export const LTI_LAUNCH_MAX_AGE_SECONDS = 2 * 3600;

export const LTI_MESSAGES = {
  platformTaken: 'This platform is already registered with this client id.',
  launchExpired: 'The launch from the learning platform has expired. Open the activity again.',
  unknownPlatform: 'No learning platform is registered with this issuer and client id.',
  targetLinkUri: 'The target link is not an address of this portal.',
  storageTarget: 'Must be _parent or a frame name (letters, digits, _ . -).',
} as const;

// ---- Deep Linking 2.0 (issue #10 point 5) ----

const Uuid = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
});

export const LtiDeepLinkParams = Type.Object({ launchId: Uuid });
export type LtiDeepLinkParams = Static<typeof LtiDeepLinkParams>;

/** A product the instructor may link: licensed to the platform's organisation, in these modes. */
export const LtiDeepLinkProduct = Type.Composite([
  Product,
  Type.Object({ modes: Type.Array(SimulationMode) }),
]);
export type LtiDeepLinkProduct = Static<typeof LtiDeepLinkProduct>;

/**
 * GET /api/v1/lti/deep-link/{launchId}: what the picker (`/lti/deep-link`) shows for an open
 * deep linking request of the caller's. The category trees come from the catalogue routes.
 */
export const LtiDeepLinkRequest = Type.Object({
  launchId: Type.String(),
  platform: Type.Object({ issuer: Type.String(), organisationName: Type.String() }),
  /** The platform's `accept_types` (the tool answers one `ltiResourceLink`). */
  acceptTypes: Type.Array(Type.String()),
  /** The platform's suggested title for the content, when it sent one. */
  title: Type.Union([Type.String(), Type.Null()]),
  products: Type.Array(LtiDeepLinkProduct),
});
export type LtiDeepLinkRequest = Static<typeof LtiDeepLinkRequest>;

/** POST /api/v1/lti/deep-link/{launchId}: the simulation to link — a leaf category and a mode. */
export const LtiDeepLinkInput = Type.Object(
  {
    productId: Type.Integer({ minimum: 1, maximum: MAX_INT4 }),
    categoryId: Type.Integer({ minimum: 1, maximum: MAX_INT4 }),
    mode: SimulationMode,
  },
  { additionalProperties: false },
);
export type LtiDeepLinkInput = Static<typeof LtiDeepLinkInput>;

/**
 * The signed LtiDeepLinkingResponse and where it goes. The browser posts `jwt` as the form field
 * `JWT` (Deep Linking 2.0 §4.2) — through `POST /api/lti/deep-link/{launchId}/return`, whose page
 * auto-posts it to `returnUrl` (the host's CSP allows forms to its own origin only).
 */
export const LtiDeepLinkAnswer = Type.Object({ returnUrl: Type.String(), jwt: Type.String() });
export type LtiDeepLinkAnswer = Static<typeof LtiDeepLinkAnswer>;

/** The custom parameters a deep-linked resource link carries; the launch forwards them to the host. */
export const LTI_DEEP_LINK_CUSTOM = ['configuration', 'protocol', 'productId', 'mode'] as const;

export const LTI_DEEP_LINK_MESSAGES = {
  notDeepLinking: 'This launch is not a request to add content from the learning platform.',
  answered:
    'This selection has already been sent to the learning platform. Start again from your course.',
  notInstructor: 'Only instructors of the course can add simulations to it.',
  unlicensedProduct: 'The organisation has no current licence for this product.',
  notLeaf: 'Select a simulation: a category of this product without subcategories.',
  noConfiguration: 'This simulation cannot be started yet: it has no configuration.',
  unlicensedMode: 'The organisation’s licence does not include this mode for the product.',
  invalidResponse: 'This is not an answer of the portal to this request.',
} as const;
