import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { http, HttpResponse } from 'msw';
import {
  ORGANISATION_DEACTIVATED,
  ORGANISATION_DEACTIVATED_DETAIL,
  type OrganisationDeactivated,
} from '@portal/contract';
import { createMemoryRouter } from '@portal/shared-ui/router-testing';
import { RouterProvider } from '@portal/shared-ui';
import { AppProviders } from '../../../app/providers';
import { createAppRoutes } from '../../../app/router';
import { fakeUserManager } from '../../../testing/fake-user-manager';
import { currentUser, runtimeConfig } from '../../../testing/fixtures';
import { getCookiePreference, whoami } from '../../../testing/handlers';
import { setupTestServer } from '../../../testing/msw-server';
import { OrganisationDeactivatedPage } from '../components/organisation-deactivated-page';

const server = setupTestServer();

afterEach(async () => {
  await i18next.changeLanguage('en');
});

const refusal = (overrides: Partial<OrganisationDeactivated> = {}): OrganisationDeactivated => ({
  detail: ORGANISATION_DEACTIVATED_DETAIL,
  code: ORGANISATION_DEACTIVATED,
  organisation: {
    id: 2,
    name: 'Other College',
    mainContact: 'Frau Dr. Lange (Sekretariat)',
    administrators: [{ name: 'Oskar Admin', email: 'orgadmin@other.test' }],
  },
  language: 'en',
  ...overrides,
});

const refused = (body: OrganisationDeactivated) => HttpResponse.json(body, { status: 403 });

function renderHost(route: string) {
  const userManager = fakeUserManager({ signedIn: true });
  const router = createMemoryRouter(
    createAppRoutes({ loadRemote: async () => [{ index: true, element: <h1>remote</h1> }] }),
    { initialEntries: [route] },
  );
  render(
    <AppProviders
      config={runtimeConfig()}
      userManager={userManager}
      swrValue={{ provider: () => new Map(), dedupingInterval: 0, shouldRetryOnError: false }}
    >
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { userManager, user: userEvent.setup() };
}

describe('deactivated organisation', () => {
  it("shows the page in the member's language, with whom to contact, instead of signing them out", async () => {
    server.use(http.get('/api/v1/user/whoami', () => refused(refusal({ language: 'de' }))));
    const { userManager } = renderHost('/simulation');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Ihre Organisation ist deaktiviert' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Other College wurde deaktiviert/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'orgadmin@other.test' })).toHaveAttribute('href', 'mailto:orgadmin@other.test');
    expect(screen.getByText(/Oskar Admin/)).toBeInTheDocument();
    expect(screen.getByText(/Frau Dr\. Lange \(Sekretariat\)/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /^support@/ })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'remote' })).not.toBeInTheDocument();
    // The login gate, which signs out after a failed whoami, is not there to do it.
    expect(screen.queryByRole('button', { name: 'Menu' })).not.toBeInTheDocument();
    expect(userManager.signoutRedirect).not.toHaveBeenCalled();
  });

  it('replaces a screen whose data request is refused because the organisation was deactivated meanwhile', async () => {
    const user = currentUser();
    server.use(
      whoami(user),
      getCookiePreference({ allowEssentialCookies: true }),
      http.get('/api/v1/user/:id/simulation-download', () => refused(refusal())),
    );
    renderHost(`/user/${user.id}/downloads`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Your organisation is deactivated' })).toBeInTheDocument();
  });

  it('any other refusal of whoami is no deactivation', async () => {
    let asked = false;
    server.use(
      http.get('/api/v1/user/whoami', () => {
        asked = true;
        return HttpResponse.json({ detail: 'Nope.', code: 'SOMETHING_ELSE' }, { status: 403 });
      }),
    );
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderHost('/simulation');

    await waitFor(() => expect(asked).toBe(true));
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(screen.queryByRole('heading', { name: 'Your organisation is deactivated' })).not.toBeInTheDocument();
  });

  it('offers Try again and Log out, by keyboard', async () => {
    const reload = jest.fn();
    server.use(http.get('/api/v1/user/whoami', () => refused(refusal())));
    const userManager = fakeUserManager({ signedIn: true });
    render(
      <AppProviders config={runtimeConfig()} userManager={userManager}>
        <OrganisationDeactivatedPage refusal={refusal({ organisation: { ...refusal().organisation, administrators: [], mainContact: null } })} reload={reload} />
      </AppProviders>,
    );
    const user = userEvent.setup();

    expect(await screen.findByText('Or contact our support:')).toBeInTheDocument();
    expect(screen.queryByText(/administrators can have it reactivated/)).not.toBeInTheDocument();
    await user.tab();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Try again' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(reload).toHaveBeenCalledTimes(1);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Log out' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(userManager.signoutRedirect).toHaveBeenCalledTimes(1));
  });
});
