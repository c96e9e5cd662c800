import {
  LTI_MESSAGE_TYPES,
  LTI_TOOL_SCOPES,
  LTI_URL_MAX_LENGTH,
  type LtiRegistrationError,
  type LtiToolConfiguration,
} from '@portal/contract';
import {
  isLoopbackHost,
  OutboundError,
  outboundPolicyFor,
  type OutboundClient,
  type OutboundErrorCode,
  type OutboundRequest,
} from '../lib/outbound-http';
import type { PlatformEndpoints, RegisteredClient } from '../repositories/lti-types';

export { isLoopbackHost };

/**
 * The tool's side of LTI Dynamic Registration 1.0 (issue #10 point 1): read the platform's
 * OpenID configuration, check it, post the tool's registration to it. Nothing here touches the
 * database; the route stores the outcome only when every step succeeded.
 */

export const PLATFORM_CONFIGURATION_CLAIM =
  'https://purl.imsglobal.org/spec/lti-platform-configuration';
export const TOOL_CONFIGURATION_CLAIM = 'https://purl.imsglobal.org/spec/lti-tool-configuration';

export class RegistrationRefused extends Error {
  constructor(
    readonly code: LtiRegistrationError,
    readonly reason: string,
  ) {
    super(`${code}: ${reason}`);
  }
}

const refuse = (code: LtiRegistrationError, reason: string): never => {
  throw new RegistrationRefused(code, reason);
};

/**
 * The rule for every URL the tool stores during a registration: https, without credentials.
 * Plain http only for loopback hosts, and only while the portal itself runs on http loopback (a
 * developer's machine with the `lms/` stand-in): a portal served over https never calls or
 * trusts a platform over http, and no install ever calls another host over http. The calls
 * themselves go through the guarded client, which checks the addresses too.
 */
export function platformUrl(raw: unknown, allowLoopbackHttp: boolean): URL | null {
  if (typeof raw !== 'string' || raw.length > LTI_URL_MAX_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && allowLoopbackHttp && isLoopbackHost(url.hostname)) return url;
  return null;
}

/** The tool's URLs for a portal at `portalUrl` (no trailing slash). */
export function toolConfiguration(portalUrl: string): LtiToolConfiguration {
  const launchUrl = `${portalUrl}/api/lti/launch`;
  return {
    registrationUrl: `${portalUrl}/api/lti/register`,
    loginUrl: `${portalUrl}/api/lti/login`,
    launchUrl,
    redirectUrls: [launchUrl],
    deepLinkingUrl: launchUrl,
    jwksUrl: `${portalUrl}/api/lti/jwks`,
    domain: new URL(portalUrl).host,
    scopes: [...LTI_TOOL_SCOPES],
  };
}

/** The client registration the tool posts (Dynamic Registration §3.5.2, OIDC Registration). */
export function toolRegistrationRequest(portalUrl: string, clientName: string) {
  const tool = toolConfiguration(portalUrl);
  return {
    application_type: 'web',
    response_types: ['id_token'],
    grant_types: ['implicit', 'client_credentials'],
    initiate_login_uri: tool.loginUrl,
    redirect_uris: tool.redirectUrls,
    client_name: clientName,
    jwks_uri: tool.jwksUrl,
    token_endpoint_auth_method: 'private_key_jwt',
    scope: tool.scopes.join(' '),
    [TOOL_CONFIGURATION_CLAIM]: {
      domain: tool.domain,
      target_link_uri: tool.launchUrl,
      // The launch forwards these to the host; a deep-linked resource link overrides them.
      custom_parameters: {},
      claims: ['iss', 'sub', 'email', 'given_name', 'family_name', 'name'],
      messages: LTI_MESSAGE_TYPES.map((type) => ({ type, target_link_uri: tool.launchUrl })),
    },
  };
}

interface JsonAnswer {
  status: number;
  body: unknown;
}

/** What a refused call means for the registration page. */
const REFUSAL_OF: Record<OutboundErrorCode, LtiRegistrationError> = {
  OUTBOUND_BLOCKED_URL: 'INSECURE_URL',
  OUTBOUND_BLOCKED_HOST: 'INSECURE_URL',
  OUTBOUND_BLOCKED_ADDRESS: 'INSECURE_URL',
  REDIRECT_REFUSED: 'CONFIGURATION_UNAVAILABLE',
  TIMEOUT: 'CONFIGURATION_UNAVAILABLE',
  NETWORK: 'CONFIGURATION_UNAVAILABLE',
  TOO_LARGE: 'INVALID_CONFIGURATION',
};

/**
 * One JSON request to the platform through the guarded client (no redirects, internal
 * addresses refused, 5 s, 256 kB). The body of an answer that is no JSON reads as undefined.
 */
async function requestJson(
  outbound: OutboundClient,
  url: URL,
  init: OutboundRequest,
): Promise<JsonAnswer> {
  try {
    const answer = await outbound.request(url, init);
    return { status: answer.status, body: answer.body.length === 0 ? null : answer.json() };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return refuse(REFUSAL_OF[error.code], `${url.origin}: ${error.message}`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The issuer must be a prefix of the configuration's URL (§3.5.1), at a path boundary: the
 * issuer `https://lms.test` does not vouch for `https://lms.test.example/…`.
 */
export function issuerMatches(issuer: string, configurationUrl: string): boolean {
  if (!configurationUrl.startsWith(issuer)) return false;
  if (configurationUrl.length === issuer.length || issuer.endsWith('/')) return true;
  return ['/', '?', '#'].includes(configurationUrl[issuer.length]!);
}

export interface RegistrationOptions {
  portalUrl: string;
  clientName: string;
  /** The guarded client; its policy is the portal's (`outboundPolicyFor(portalUrl)`). */
  outbound: OutboundClient;
}

export function createDynamicRegistration({ portalUrl, clientName, outbound }: RegistrationOptions) {
  const allowLoopbackHttp = outboundPolicyFor(portalUrl).development;
  const url = (raw: unknown) => platformUrl(raw, allowLoopbackHttp);

  return {
    /** The openid_configuration URL the platform sent, or a refusal. */
    configurationUrl(raw: string): URL {
      return url(raw) ?? refuse('INSECURE_URL', 'openid_configuration is no allowed URL');
    },

    /** Reads and checks the platform's OpenID configuration (§3.4, §3.5.1). */
    async platformConfiguration(configurationUrl: URL): Promise<PlatformEndpoints> {
      const answer = await requestJson(outbound, configurationUrl, {
        method: 'GET',
        headers: { accept: 'application/json' },
      });
      if (answer.status !== 200) {
        refuse('CONFIGURATION_UNAVAILABLE', `openid_configuration answered ${answer.status}`);
      }
      const config = answer.body;
      if (!isObject(config)) return refuse('INVALID_CONFIGURATION', 'not a JSON object');
      const issuer = config.issuer;
      if (typeof issuer !== 'string' || issuer.length > 255 || !url(issuer)) {
        return refuse('INVALID_CONFIGURATION', 'issuer missing or not an allowed URL');
      }
      if (!issuerMatches(issuer, configurationUrl.href)) {
        refuse('ISSUER_MISMATCH', `issuer ${issuer} is no prefix of ${configurationUrl.href}`);
      }
      const endpoint = (name: string) => {
        const value = config[name];
        if (value === undefined || value === null) {
          return refuse('INVALID_CONFIGURATION', `${name} missing`);
        }
        return (url(value) ?? refuse('INSECURE_URL', `${name} is no allowed URL`)).href;
      };
      const endpoints: PlatformEndpoints = {
        issuer,
        authorizationEndpoint: endpoint('authorization_endpoint'),
        tokenEndpoint: endpoint('token_endpoint'),
        jwksUri: endpoint('jwks_uri'),
        registrationEndpoint: endpoint('registration_endpoint'),
        // Optional; Brightspace names https://api.brightspace.com/auth/token here.
        authorizationServer:
          config.authorization_server === undefined || config.authorization_server === null
            ? null
            : endpoint('authorization_server'),
      };
      const listIncludes = (name: string, value: string) => {
        const list = config[name];
        if (list === undefined) return;
        if (!Array.isArray(list) || !list.includes(value)) {
          refuse('INVALID_CONFIGURATION', `${name} does not include ${value}`);
        }
      };
      // Required by the spec; checked when present, since the tool cannot work without them.
      listIncludes('token_endpoint_auth_methods_supported', 'private_key_jwt');
      listIncludes('id_token_signing_alg_values_supported', 'RS256');
      const platform = config[PLATFORM_CONFIGURATION_CLAIM];
      if (!isObject(platform) || typeof platform.product_family_code !== 'string') {
        refuse('INVALID_CONFIGURATION', `${PLATFORM_CONFIGURATION_CLAIM} missing or incomplete`);
      }
      return endpoints;
    },

    /** Posts the tool's registration with the platform's registration token (§3.5.2, §3.6). */
    async register(
      endpoints: PlatformEndpoints,
      registrationToken: string | undefined,
    ): Promise<RegisteredClient> {
      const answer = await requestJson(outbound, new URL(endpoints.registrationEndpoint), {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          ...(registrationToken ? { authorization: `Bearer ${registrationToken}` } : {}),
        },
        body: JSON.stringify(toolRegistrationRequest(portalUrl, clientName)),
      });
      if (answer.status !== 200 && answer.status !== 201) {
        refuse('REGISTRATION_REFUSED', `registration_endpoint answered ${answer.status}`);
      }
      const client = answer.body;
      if (!isObject(client)) return refuse('INVALID_REGISTRATION', 'not a JSON object');
      const clientId = client.client_id;
      if (typeof clientId !== 'string' || !/\S/.test(clientId) || clientId.length > 255) {
        return refuse('INVALID_REGISTRATION', 'client_id missing');
      }
      const tool = client[TOOL_CONFIGURATION_CLAIM];
      const deploymentId = isObject(tool) ? tool.deployment_id : undefined;
      if (deploymentId === undefined) return { clientId: clientId.trim(), deploymentId: null };
      if (
        typeof deploymentId !== 'string' ||
        !/\S/.test(deploymentId) ||
        deploymentId.length > 255
      ) {
        return refuse(
          'INVALID_REGISTRATION',
          'deployment_id is not a string of 1 to 255 characters',
        );
      }
      return { clientId: clientId.trim(), deploymentId: deploymentId.trim() };
    },
  };
}
