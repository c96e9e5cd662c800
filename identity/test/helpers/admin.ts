import type { IdentityApp } from '../../src/app';
import { OIDC } from './oidc';

/** The `portal-api` client's secret in tests; the stacks generate a random one per start. */
export const SERVICE_SECRET = 'test-service-secret-0123456789abcdef';

/** The client-credentials request exactly as @keycloak/keycloak-admin-client 26 sends it (utils/auth.js). */
export async function requestServiceToken(
  app: IdentityApp,
  { secret = SERVICE_SECRET, clientId = 'portal-api', method = 'basic' as 'basic' | 'post' } = {},
): Promise<Response> {
  const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (method === 'basic') {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  } else {
    body.set('client_secret', secret);
  }
  return fetch(`${app.issuer}${OIDC}/token`, { method: 'POST', headers, body });
}

export async function serviceToken(app: IdentityApp): Promise<string> {
  const response = await requestServiceToken(app);
  if (response.status !== 200) throw new Error(`service token refused: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export const adminUrl = (app: IdentityApp, path = ''): string => `${app.url}/admin/realms/main/users${path}`;

/** An admin API request as the client's Agent makes it: bearer token, JSON body, that Accept header. */
export function admin(app: IdentityApp, token: string | undefined, method: string, path = '', body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json, text/plain, */*' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(adminUrl(app, path), { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
}

export interface UserRepresentation {
  id: string;
  username: string;
  email: string;
  firstName?: string;
  lastName?: string;
  enabled: boolean;
  emailVerified: boolean;
  requiredActions: string[];
  createdTimestamp: number;
  attributes?: Record<string, string[]>;
}

/** Creates a user and answers its id, taken from the Location header as the admin client does. */
export async function createUser(app: IdentityApp, token: string, rep: Record<string, unknown>): Promise<string> {
  const response = await admin(app, token, 'POST', '', rep);
  if (response.status !== 201) throw new Error(`create refused: ${response.status} ${await response.text()}`);
  const id = response.headers.get('location')?.split('/').pop();
  if (!id) throw new Error('no id in Location');
  return id;
}

export interface OutboxEntry {
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: string;
}

export async function outbox(app: IdentityApp): Promise<OutboxEntry[]> {
  const response = await fetch(`${app.url}/dev/outbox.json`);
  if (response.status !== 200) throw new Error(`outbox: ${response.status}`);
  return (await response.json()) as OutboxEntry[];
}

/** The set-password link in a mail's text. */
export function linkIn(mail: OutboxEntry): URL {
  const match = /https?:\/\/\S+\/login-actions\/action-token\?key=\S+/.exec(mail.text);
  if (!match) throw new Error(`no link in:\n${mail.text}`);
  return new URL(match[0]);
}
