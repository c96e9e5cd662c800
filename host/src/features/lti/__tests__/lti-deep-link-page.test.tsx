import { screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { http, HttpResponse } from 'msw';
import type {
  FieldErrors,
  LtiDeepLinkAnswer,
  LtiDeepLinkInput,
  LtiDeepLinkRequest,
  ProductCategory,
} from '@portal/contract';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { currentUser } from '../../../testing/fixtures';

const server = setupTestServer();
const LAUNCH_ID = '7d3f6c1e-2a4b-4c5d-8e9f-0a1b2c3d4e5f';
const route = `/lti/deep-link?launchId=${LAUNCH_ID}`;

const product = (
  id: number,
  name: string,
  modes: LtiDeepLinkRequest['products'][number]['modes'],
) => ({
  id,
  code: name.toLowerCase(),
  name,
  description: '',
  protocol: `vmc-${name.toLowerCase()}`,
  launchProtocols: [`vmc-${name.toLowerCase()}`],
  image: null,
  selectionMessage: null,
  modes,
});

const REQUEST: LtiDeepLinkRequest = {
  launchId: LAUNCH_ID,
  platform: { issuer: 'https://lms.example.test', organisationName: 'Demo Hospital' },
  acceptTypes: ['ltiResourceLink'],
  title: null,
  products: [product(1, 'Radiography', ['VR', 'Desktop']), product(3, 'Birthing', ['Desktop'])],
};

const node = (
  id: number,
  displayName: string,
  children: ProductCategory[] = [],
): ProductCategory => ({
  id,
  name: displayName.toLowerCase(),
  displayName,
  image: null,
  simulationConfiguration: children.length === 0 ? `x.${id}` : null,
  children,
});

const TREES: Record<string, Record<string, ProductCategory[]>> = {
  en: {
    '1': [
      node(10, 'Lower limb', [node(11, 'Foot'), node(12, 'Knee')]),
      node(20, 'Upper limb', [node(21, 'Hand')]),
    ],
    '3': [node(30, 'All fours'), node(31, 'Kneeling')],
  },
  de: {
    '1': [node(10, 'Untere Extremität', [node(11, 'Fuß'), node(12, 'Knie')])],
    '3': [node(30, 'Vierfüßlerstand')],
  },
};

function serve({
  request = () => HttpResponse.json<LtiDeepLinkRequest>(REQUEST),
  answer = () =>
    HttpResponse.json<LtiDeepLinkAnswer>({
      returnUrl: 'https://lms.example.test/return',
      jwt: 'a.b.c',
    }),
}: {
  request?: () => Response;
  answer?: (body: LtiDeepLinkInput) => Response;
} = {}) {
  const sent: LtiDeepLinkInput[] = [];
  server.use(
    http.get('/api/v1/lti/deep-link/:launchId', request),
    http.get('/api/v1/product/:productId/category', ({ params, request: req }) => {
      const language = new URL(req.url).searchParams.get('language') ?? 'en';
      return HttpResponse.json<ProductCategory[]>(
        TREES[language]?.[String(params.productId)] ?? [],
      );
    }),
    http.post('/api/v1/lti/deep-link/:launchId', async ({ request: req }) => {
      const body = (await req.json()) as LtiDeepLinkInput;
      sent.push(body);
      return answer(body);
    }),
  );
  return sent;
}

let submitted: HTMLFormElement[];
beforeEach(() => {
  submitted = [];
  // jsdom does not navigate; the form the page submits is what the browser would post.
  jest.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (
    this: HTMLFormElement,
  ) {
    submitted.push(this);
  });
});
afterEach(async () => {
  jest.restoreAllMocks();
  await i18next.changeLanguage('en');
});

describe('LTI deep linking picker', () => {
  it('shows the error page without a valid launchId', async () => {
    renderApp({ server, route: '/lti/deep-link?launchId=nope', user: null });
    expect(
      await screen.findByRole('heading', { name: 'The selection could not be opened' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go back' })).toBeInTheDocument();
  });

  it('asks a signed-out user to log in and returns to the same URL', async () => {
    const { user, userManager } = renderApp({ server, route, user: null });
    await user.click(await screen.findByRole('button', { name: 'Log in' }));
    expect(userManager.signinRedirect).toHaveBeenCalledWith({ state: { returnPath: route } });
  });

  describe('signing in by the request (kc_idp_hint), as a launch does', () => {
    afterEach(() => sessionStorage.clear());

    it('starts the brokered sign-in at once with the request as login_hint, without a Log in button', async () => {
      const brokered = `${route}&idp=lti`;
      const { userManager } = renderApp({ server, route: brokered, user: null });

      await waitFor(() =>
        expect(userManager.signinRedirect).toHaveBeenCalledWith({
          state: { returnPath: brokered },
          extraQueryParams: { kc_idp_hint: 'lti' },
          login_hint: LAUNCH_ID,
        }),
      );
      expect(screen.queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument();
      expect(screen.getByText('Signing you in through your learning platform…')).toBeInTheDocument();
    });

    it('back still signed out, says it did not work and offers the password sign-in (en, de)', async () => {
      sessionStorage.setItem(`lti-launch-sign-in:${LAUNCH_ID}`, '1');
      const brokered = `${route}&idp=lti`;
      const { user, userManager, unmount } = renderApp({ server, route: brokered, user: null });

      expect(await screen.findByRole('alert')).toHaveTextContent(
        'Signing you in through your learning platform did not work.',
      );
      await user.click(screen.getByRole('button', { name: 'Log in' }));
      expect(userManager.signinRedirect).toHaveBeenCalledTimes(1);
      expect(userManager.signinRedirect).toHaveBeenCalledWith({ state: { returnPath: brokered } });
      unmount();

      await i18next.changeLanguage('de');
      renderApp({ server, route: brokered, user: null });
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'Die Anmeldung über Ihre Lernplattform hat nicht funktioniert.',
      );
    });

    it('never signs in by an invalid launchId, even with a hint', async () => {
      const { userManager } = renderApp({ server, route: '/lti/deep-link?launchId=nope&idp=lti', user: null });
      expect(
        await screen.findByRole('heading', { name: 'The selection could not be opened' }),
      ).toBeInTheDocument();
      expect(userManager.signinRedirect).not.toHaveBeenCalled();
    });
  });

  it('explains why a request cannot be answered (already answered)', async () => {
    serve({
      request: () =>
        HttpResponse.json<FieldErrors>(
          {
            launchId: [
              'This selection has already been sent to the learning platform. Start again from your course.',
            ],
          },
          { status: 409 },
        ),
    });
    renderApp({ server, route });
    expect(
      await screen.findByRole('heading', { name: 'The selection could not be opened' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'This selection has already been sent to the learning platform. Start again from your course.',
      ),
    ).toBeInTheDocument();
  });

  it('picks product, category down to a leaf and mode with the keyboard, then posts the JWT back', async () => {
    const sent = serve();
    const { user } = renderApp({ server, route });

    const productSelect = await screen.findByRole('combobox', { name: /Product/ });
    expect(screen.getByText(/https:\/\/lms\.example\.test/)).toBeInTheDocument();
    await user.selectOptions(productSelect, 'Radiography');
    await user.selectOptions(
      await screen.findByRole('combobox', { name: /^Category/ }),
      'Lower limb',
    );
    await user.selectOptions(await screen.findByRole('combobox', { name: /Subcategory/ }), 'Knee');
    // The modes are a radio group reached by Tab; arrows move between them.
    const group = screen.getByRole('group', { name: 'Mode' });
    const vr = within(group).getByRole('radio', { name: 'VR' });
    vr.focus();
    await user.keyboard(' ');
    expect(vr).toBeChecked();
    await user.keyboard('{ArrowRight}');
    expect(within(group).getByRole('radio', { name: 'Desktop' })).toBeChecked();
    expect(screen.getByText('Radiography › Lower limb › Knee — Desktop')).toBeInTheDocument();

    screen.getByRole('button', { name: 'Add to course' }).focus();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(sent).toEqual([{ productId: 1, categoryId: 12, mode: 'Desktop' }]);
    const form = submitted[0]!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe(`/api/lti/deep-link/${LAUNCH_ID}/return`);
    const fields = Array.from(form.querySelectorAll('input'), (input) => [input.name, input.value]);
    expect(Object.fromEntries(fields)).toEqual({ JWT: 'a.b.c', language: 'en' });
    expect(
      screen.getByRole('heading', { name: 'Returning to your learning platform…' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeInTheDocument();
  });

  it('a product with one mode and leaves at the top: one select, the mode preselected', async () => {
    const sent = serve();
    const { user } = renderApp({ server, route });
    await user.selectOptions(await screen.findByRole('combobox', { name: /Product/ }), 'Birthing');
    await user.selectOptions(
      await screen.findByRole('combobox', { name: /^Category/ }),
      'Kneeling',
    );
    expect(screen.queryByRole('combobox', { name: /Subcategory/ })).not.toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Desktop' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Add to course' }));
    await waitFor(() => expect(sent).toEqual([{ productId: 3, categoryId: 31, mode: 'Desktop' }]));
  });

  it('says what is missing under the fields and sends nothing', async () => {
    const sent = serve();
    const { user } = renderApp({ server, route });
    await user.click(await screen.findByRole('button', { name: 'Add to course' }));
    expect(await screen.findByText('This field is required.')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: /Product/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );

    await user.selectOptions(screen.getByRole('combobox', { name: /Product/ }), 'Radiography');
    await user.selectOptions(
      await screen.findByRole('combobox', { name: /^Category/ }),
      'Lower limb',
    );
    await user.click(screen.getByRole('button', { name: 'Add to course' }));
    // A category with subcategories is no simulation: the error sits under the next select.
    expect(await screen.findByRole('combobox', { name: /Subcategory/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(screen.getByRole('group', { name: 'Mode' })).toHaveAttribute('aria-describedby');
    expect(sent).toEqual([]);
    expect(submitted).toEqual([]);
  });

  it('shows the server’s field errors under their fields, in German', async () => {
    serve({
      answer: () =>
        HttpResponse.json<FieldErrors>(
          { mode: ['The organisation’s licence does not include this mode for the product.'] },
          { status: 400 },
        ),
    });
    const { user } = renderApp({ server, route, user: currentUser({ language: 'de' }) });
    expect(
      await screen.findByRole('heading', { name: 'Simulation zum Kurs hinzufügen' }),
    ).toBeInTheDocument();
    await user.selectOptions(
      await screen.findByRole('combobox', { name: /Produkt/ }),
      'Radiography',
    );
    await user.selectOptions(
      await screen.findByRole('combobox', { name: /^Kategorie/ }),
      'Untere Extremität',
    );
    await user.selectOptions(
      await screen.findByRole('combobox', { name: /Unterkategorie/ }),
      'Knie',
    );
    await user.click(screen.getByRole('radio', { name: 'VR' }));
    expect(screen.getByText('Radiography › Untere Extremität › Knie — VR')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Zum Kurs hinzufügen' }));

    const message = await screen.findByText(
      'Die Lizenz der Organisation umfasst diesen Modus für das Produkt nicht.',
    );
    expect(screen.getByRole('group', { name: 'Modus' })).toHaveAttribute(
      'aria-describedby',
      message.id,
    );
    expect(submitted).toEqual([]);
  });
});
