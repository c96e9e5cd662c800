import { handleSilentCallback, SILENT_CHECK_SSO_HTML } from '../silent-callback';

const CALLBACK = '/silent-check-sso.html?state=abc123&session_state=s1&code=the-code';

/** In jsdom the page is its own parent, so the message to the parent arrives on window. */
function nextMessage(): Promise<MessageEvent> {
  return new Promise((resolve) => window.addEventListener('message', resolve, { once: true }));
}

beforeEach(() => window.history.replaceState(null, '', CALLBACK));
afterAll(() => window.history.replaceState(null, '', '/'));

it('handleSilentCallback hands the authorization response to the parent window', async () => {
  const message = nextMessage();
  await handleSilentCallback();

  const event = await message;
  expect(event.data).toEqual({
    source: 'oidc-client',
    url: `http://localhost${CALLBACK}`,
    keepOpen: false,
  });
});

it('the static silent-check-sso.html posts the same message as oidc-client-ts', async () => {
  const fromLibrary = nextMessage();
  await handleSilentCallback();
  const expected = (await fromLibrary).data as unknown;

  const script = /<script>([\s\S]*)<\/script>/.exec(SILENT_CHECK_SSO_HTML)?.[1];
  expect(script).toBeDefined();
  const fromPage = nextMessage();
  new Function(script ?? '')();

  expect((await fromPage).data).toEqual(expected);
});
