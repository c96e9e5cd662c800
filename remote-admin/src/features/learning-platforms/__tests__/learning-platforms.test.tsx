import { screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { axe } from 'jest-axe';
import { http, HttpResponse } from 'msw';
import type { LtiPlatform, LtiPlatformInput, LtiRegistrationToken, LtiToolConfiguration } from '@portal/contract';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import {
  ALL_ADMIN_PERMISSIONS,
  badRequest,
  organisation,
  ORG_ADMIN_PERMISSIONS,
  paged,
  serveLookups,
  serveOrganisation,
  servePaged,
} from '../../../testing/admin-api';

const server = setupTestServer();
// Forms typed key by key and axe walking the page: seconds on a busy machine, not a hang.
jest.setTimeout(30_000);

const LIST = '/api/v1/lti/platform';

const platform = (overrides: Partial<LtiPlatform> = {}): LtiPlatform => ({
  id: 5,
  issuer: 'https://lms.demo.test',
  clientId: 'portal-client',
  authLoginUrl: 'https://lms.demo.test/auth',
  accessTokenUrl: 'https://lms.demo.test/token',
  jwksUrl: 'https://lms.demo.test/jwks',
  deploymentIds: ['dep-1', 'dep-2'],
  organisationId: 1,
  organisationName: 'Demo Hospital',
  verifiesEmail: false,
  frameOrigins: [],
  tokenAudience: null,
  createdAt: '2026-11-20T09:30:00Z',
  ...overrides,
});

const TOOL: LtiToolConfiguration = {
  registrationUrl: 'http://portal.test/api/lti/register',
  loginUrl: 'http://portal.test/api/lti/login',
  launchUrl: 'http://portal.test/api/lti/launch',
  redirectUrls: ['http://portal.test/api/lti/launch'],
  deepLinkingUrl: 'http://portal.test/api/lti/launch',
  jwksUrl: 'http://portal.test/api/lti/jwks',
  domain: 'portal.test',
  scopes: ['https://purl.imsglobal.org/spec/lti-ags/scope/score'],
};

const TOKEN: LtiRegistrationToken = {
  url: 'http://portal.test/api/lti/register?portal_token=abc123',
  expiresAt: '2026-11-26T12:00:00Z',
};

/** The platform routes of organisation 1, remembering what was sent. */
function servePlatforms({ errors }: { errors?: Record<string, string[]> } = {}) {
  const sent: Array<{ method: string; body?: LtiPlatformInput }> = [];
  let tokens = 0;
  const { queries } = servePaged(server, LIST, () => paged([platform()]));
  server.use(
    http.get('/api/v1/lti/tool', () => HttpResponse.json<LtiToolConfiguration>(TOOL)),
    http.get<{ id: string }>(`${LIST}/:id`, ({ params }) =>
      params.id === '5' ? HttpResponse.json<LtiPlatform>(platform()) : HttpResponse.json({ detail: 'Not found.' }, { status: 404 }),
    ),
    http.post<never, LtiPlatformInput>(LIST, async ({ request }) => {
      const body = await request.json();
      sent.push({ method: 'POST', body });
      if (errors) return badRequest(errors);
      return HttpResponse.json<LtiPlatform>(platform({ ...body, id: 6, createdAt: '2026-11-25T10:00:00Z' }), { status: 201 });
    }),
    http.put<{ id: string }, LtiPlatformInput>(`${LIST}/:id`, async ({ request }) => {
      const body = await request.json();
      sent.push({ method: 'PUT', body });
      if (errors) return badRequest(errors);
      return HttpResponse.json<LtiPlatform>(platform({ ...body }));
    }),
    http.delete(`${LIST}/:id`, () => {
      sent.push({ method: 'DELETE' });
      return new HttpResponse(null, { status: 204 });
    }),
    http.post('/api/v1/organisation/1/lti/registration-token', () => {
      tokens++;
      return HttpResponse.json<LtiRegistrationToken>({ ...TOKEN, url: `${TOKEN.url}${tokens}` }, { status: 201 });
    }),
  );
  return { sent, queries, tokens: () => tokens };
}

async function expectNoViolations(container: HTMLElement) {
  // "region" is the host's to satisfy: it mounts the remote inside its <main>.
  const results = await axe(container, { rules: { region: { enabled: false } } });
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

beforeEach(() => {
  serveLookups(server);
  serveOrganisation(server, organisation());
});

describe('learning platform tab', () => {
  it('lists the organisation’s platforms and the tool’s URLs, without axe violations', async () => {
    const { queries } = servePlatforms();
    const { container } = renderRemote({ server, path: '/admin/organisation/1/lti', permissions: ALL_ADMIN_PERMISSIONS });

    const table = await screen.findByRole('table', { name: 'Learning platform' });
    const [header, row] = await within(table).findAllByRole('row');
    expect(within(header as HTMLElement).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Issuer',
      'Client ID',
      'Deployment IDs',
      'Registered',
      'Actions',
    ]);
    expect(row).toHaveTextContent('https://lms.demo.test');
    expect(row).toHaveTextContent('portal-client');
    expect(row).toHaveTextContent('dep-1, dep-2');
    expect(row).toHaveTextContent('20/11/2026');
    expect(within(row as HTMLElement).getByRole('link', { name: 'Edit https://lms.demo.test portal-client' })).toHaveAttribute(
      'href',
      '/admin/organisation/1/lti/5',
    );
    expect(queries[0]?.get('organisation')).toBe('1');
    expect(screen.getByRole('link', { name: 'Add manually' })).toHaveAttribute('href', '/admin/organisation/1/lti/new');
    expect(await screen.findByLabelText('Login initiation URL')).toHaveValue(TOOL.loginUrl);
    expect(screen.getByLabelText(/^Launch \(redirect\) URL/)).toHaveValue(TOOL.launchUrl);
    expect(screen.getByLabelText('Deep linking URL')).toHaveValue(TOOL.deepLinkingUrl);
    expect(screen.getByLabelText('Public key set (JWKS) URL')).toHaveValue(TOOL.jwksUrl);
    const tabs = screen.getByRole('navigation', { name: 'Organisation sections' });
    expect(within(tabs).getByRole('link', { name: 'Learning platform' })).toHaveAttribute('aria-current', 'page');
    await expectNoViolations(container);
  });

  it('creates a registration URL by keyboard, shows it with its expiry and copies it', async () => {
    const { tokens } = servePlatforms();
    const { user, container } = renderRemote({ server, path: '/admin/organisation/1/lti', permissions: ALL_ADMIN_PERMISSIONS });

    const create = await screen.findByRole('button', { name: 'Create a registration URL' });
    create.focus();
    await user.keyboard('{Enter}');
    const field = await screen.findByLabelText(/^Registration URL/);
    expect(field).toHaveValue(`${TOKEN.url}1`);
    expect(field).toHaveAttribute('readonly');
    expect(screen.getByText(/^Expires 26\/11\/2026/)).toBeInTheDocument();
    expect(tokens()).toBe(1);

    // user-event's clipboard stand-in, watched: jsdom has none of its own.
    const writeText = jest.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copy Registration URL' }));
    expect(writeText).toHaveBeenCalledWith(`${TOKEN.url}1`);
    expect(await screen.findByText('Registration URL copied')).toBeInTheDocument();
    await expectNoViolations(container);

    await user.click(screen.getByRole('button', { name: 'Create another registration URL' }));
    await waitFor(() => expect(screen.getByLabelText(/^Registration URL/)).toHaveValue(`${TOKEN.url}2`));
  });

  it('is hidden from organisation administrators, whom the API refuses', async () => {
    servePlatforms();
    const { unmount } = renderRemote({ server, path: '/admin/organisation/1/license', permissions: ORG_ADMIN_PERMISSIONS });
    const tabs = await screen.findByRole('navigation', { name: 'Organisation sections' });
    expect(within(tabs).queryByRole('link', { name: 'Learning platform' })).not.toBeInTheDocument();
    unmount();

    renderRemote({ server, path: '/admin/organisation/1/lti', permissions: ORG_ADMIN_PERMISSIONS });
    // The frame renders again once the organisation has loaded: wait for the settled page.
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Create a registration URL' })).not.toBeInTheDocument();
  });
});

describe('adding, changing and deleting a platform', () => {
  it('adds a platform by hand for this organisation and returns to the list', async () => {
    const { sent } = servePlatforms();
    const { user, container } = renderRemote({ server, path: '/admin/organisation/1/lti/new', permissions: ALL_ADMIN_PERMISSIONS });

    await user.type(await screen.findByLabelText(/^Issuer/), 'https://moodle.demo.test');
    await user.type(screen.getByLabelText(/^Client ID/), ' moodle-client ');
    await user.type(screen.getByLabelText(/^Authentication \(OIDC login\) URL/), 'https://moodle.demo.test/auth');
    await user.type(screen.getByLabelText(/^Access token URL/), 'https://moodle.demo.test/token');
    await user.type(screen.getByLabelText(/^Platform key set \(JWKS\) URL/), 'https://moodle.demo.test/jwks');
    await user.type(screen.getByLabelText(/^Deployment IDs/), 'a, b ,, c');
    await expectNoViolations(container);
    await user.keyboard('{Enter}');

    expect(await screen.findByText('Learning platform https://moodle.demo.test added successfully')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        method: 'POST',
        body: {
          issuer: 'https://moodle.demo.test',
          clientId: 'moodle-client',
          authLoginUrl: 'https://moodle.demo.test/auth',
          accessTokenUrl: 'https://moodle.demo.test/token',
          jwksUrl: 'https://moodle.demo.test/jwks',
          deploymentIds: ['a', 'b', 'c'],
          organisationId: 1,
          verifiesEmail: false,
          frameOrigins: [],
          tokenAudience: null,
        },
      },
    ]);
  });

  it('marks a platform as verifying e-mail addresses by keyboard, explained under the checkbox', async () => {
    const { sent } = servePlatforms();
    const { user, container } = renderRemote({ server, path: '/admin/organisation/1/lti/5', permissions: ALL_ADMIN_PERMISSIONS });

    const checkbox = await screen.findByRole('checkbox', { name: 'Platform verifies e-mail addresses' });
    expect(checkbox).not.toBeChecked();
    expect(checkbox).toHaveAccessibleDescription(/sign in to the existing portal account with the same e-mail/);
    screen.getByLabelText(/^Deployment IDs/).focus();
    await user.keyboard('{Tab}');
    expect(checkbox).toHaveFocus();
    await user.keyboard(' ');
    expect(checkbox).toBeChecked();
    await expectNoViolations(container);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Learning platform saved')).toBeInTheDocument();
    expect(sent).toEqual([{ method: 'PUT', body: expect.objectContaining({ verifiesEmail: true, clientId: 'portal-client' }) }]);
  });

  it('names framing origins and a token audience; a wrong origin is named under the field', async () => {
    const { sent } = servePlatforms();
    const { user, container } = renderRemote({ server, path: '/admin/organisation/1/lti/5', permissions: ALL_ADMIN_PERMISSIONS });

    const origins = await screen.findByLabelText(/^Framing origins/);
    expect(origins).toHaveAccessibleDescription(/https:\/\/school\.instructure\.com for hosted Canvas/);
    screen.getByRole('checkbox', { name: 'Platform verifies e-mail addresses' }).focus();
    await user.keyboard('{Tab}');
    expect(origins).toHaveFocus();
    await user.keyboard('https://school.instructure.com/courses/1, http://canvas.demo.test');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(origins).toHaveAccessibleDescription(
        /https:\/\/school\.instructure\.com\/courses\/1 is not an origin.*http:\/\/canvas\.demo\.test must use https:\/\//,
      ),
    );
    expect(sent).toEqual([]);
    await expectNoViolations(container);

    await user.clear(origins);
    await user.type(origins, 'https://school.instructure.com https://other.instructure.com:8443/');
    await user.tab();
    expect(screen.getByLabelText(/^Token audience/)).toHaveFocus();
    await user.keyboard('https://api.brightspace.com/auth/token');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Learning platform saved')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        method: 'PUT',
        body: expect.objectContaining({
          frameOrigins: ['https://school.instructure.com', 'https://other.instructure.com:8443/'],
          tokenAudience: 'https://api.brightspace.com/auth/token',
        }),
      },
    ]);
  });

  it('shows the server’s field errors under their fields', async () => {
    servePlatforms({ errors: { clientId: ['This platform is already registered with this client id.'] } });
    const { user } = renderRemote({ server, path: '/admin/organisation/1/lti/5', permissions: ALL_ADMIN_PERMISSIONS });

    const clientId = await screen.findByLabelText(/^Client ID/);
    expect(clientId).toHaveValue('portal-client');
    expect(screen.getByLabelText(/^Deployment IDs/)).toHaveValue('dep-1, dep-2');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(clientId).toHaveAccessibleDescription(/already registered with this client id/));
  });

  it('deletes after the confirmation, with focus on Cancel first', async () => {
    const { sent } = servePlatforms();
    const { user } = renderRemote({ server, path: '/admin/organisation/1/lti/5', permissions: ALL_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('button', { name: 'Delete learning platform' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete learning platform' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(dialog).toHaveTextContent('client ID portal-client');
    await expectNoViolations(document.body);
    await user.keyboard('{Tab}{Enter}');

    expect(await screen.findByText('Learning platform https://lms.demo.test deleted')).toBeInTheDocument();
    expect(sent).toEqual([{ method: 'DELETE' }]);
  });
});

describe('in German', () => {
  afterEach(() => i18next.changeLanguage('en'));

  it('names the tab, the sections and the server’s message in German', async () => {
    await i18next.changeLanguage('de');
    servePlatforms({ errors: { clientId: ['This platform is already registered with this client id.'] } });
    const { user } = renderRemote({ server, path: '/admin/organisation/1/lti/new', permissions: ALL_ADMIN_PERMISSIONS });

    expect(await screen.findByRole('link', { name: 'Lernplattform' })).toBeInTheDocument();
    await user.type(await screen.findByLabelText(/^Aussteller/), 'https://moodle.demo.test');
    expect(screen.getByLabelText(/^Einbettende Ursprünge/)).toHaveAccessibleDescription(/für gehostetes Canvas/);
    expect(screen.getByLabelText(/^Token-Zielgruppe/)).toHaveAccessibleDescription(/Leer: die Access-Token-URL/);
    await user.type(screen.getByLabelText(/^Client-ID/), 'c');
    await user.type(screen.getByLabelText(/^Authentifizierungs-URL/), 'https://moodle.demo.test/auth');
    await user.type(screen.getByLabelText(/^Zugriffstoken-URL/), 'https://moodle.demo.test/token');
    await user.type(screen.getByLabelText(/^URL des Schlüsselsatzes/), 'https://moodle.demo.test/jwks');
    expect(screen.getByRole('checkbox', { name: 'Lernplattform prüft E-Mail-Adressen' })).toHaveAccessibleDescription(
      /bestehenden Portalkonto derselben E-Mail-Adresse/,
    );
    await user.click(screen.getByRole('button', { name: 'Erstellen' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Client-ID/)).toHaveAccessibleDescription(/Diese Plattform ist mit dieser Client-ID bereits registriert/),
    );
  });
});
