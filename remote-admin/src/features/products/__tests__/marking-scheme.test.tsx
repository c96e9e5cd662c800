import { screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { axe } from 'jest-axe';
import type { MarkingScheme } from '@portal/contract';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { paged, servePaged } from '../../../testing/admin-api';
import {
  configuration,
  serveConfiguration,
  serveMarkingScheme,
  serveProductLookups,
  SYS_ADMIN_PERMISSIONS,
} from '../../../testing/product-admin-api';

const server = setupTestServer();
jest.setTimeout(30_000);

const PATH = '/admin/product/1/configuration/5';
const SCHEME: MarkingScheme = {
  passMark: 60,
  criteria: {
    kV: { weight: 10, min: 70, max: 80, partialTolerance: 5 },
    dose: { weight: 20, drlDapMGyCm2: 1500, partialAtMostPercent: 150 },
  },
};

beforeEach(() => {
  serveProductLookups(server);
  servePaged(server, '/api/v1/product/1/configuration', () => paged([configuration()]));
  serveConfiguration(server, configuration());
});
afterEach(() => i18next.changeLanguage('en'));

const section = () => screen.findByRole('form', { name: 'Marking scheme' });

describe('marking scheme next to the configuration', () => {
  it('shows the stored scheme and saves a changed limit and a new criterion, by keyboard', async () => {
    const { sent } = serveMarkingScheme(server, 5, SCHEME);
    const { user, container } = renderRemote({ server, path: PATH, permissions: SYS_ADMIN_PERMISSIONS });
    const form = await section();
    const voltage = within(form).getByRole('group', { name: 'Tube voltage' });
    expect(within(voltage).getByRole('checkbox', { name: 'Use Tube voltage' })).toBeChecked();
    expect(within(voltage).getByRole('spinbutton', { name: /^Minimum/ })).toHaveValue(70);
    expect(within(form).getByRole('checkbox', { name: 'Use Centring' })).not.toBeChecked();
    expect((await axe(container, { rules: { region: { enabled: false } } })).violations.map((v) => v.id)).toEqual([]);

    const max = within(voltage).getByRole('spinbutton', { name: /^Maximum/ });
    await user.clear(max);
    await user.type(max, '85');
    within(form).getByRole('checkbox', { name: 'Use Repeats' }).focus();
    await user.keyboard(' ');
    const repeats = within(form).getByRole('group', { name: 'Repeats' });
    for (const [name, value] of [['Weight', '10'], ['Full marks up to (repeats)', '0'], ['Half marks up to (repeats)', '1']] as const) {
      await user.type(within(repeats).getByRole('spinbutton', { name: new RegExp(`^${name.replace(/[()]/g, '\\$&')}`) }), value);
    }
    within(form).getByRole('button', { name: 'Save marking scheme' }).focus();
    await user.keyboard('{Enter}');

    expect(await screen.findByText('Marking scheme saved')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        scheme: {
          passMark: 60,
          criteria: {
            kV: { weight: 10, min: 70, max: 85, partialTolerance: 5 },
            dose: { weight: 20, drlDapMGyCm2: 1500, partialAtMostPercent: 150 },
            repeats: { weight: 10, fullAtMost: 0, partialAtMost: 1 },
          },
        },
      },
    ]);
  });

  it("an empty limit is refused under its field; the API's refusal shows under the field it names", async () => {
    const { sent } = serveMarkingScheme(server, 5, SCHEME, {
      errors: { 'scheme.criteria.kV.max': ['must not be below the minimum'] },
    });
    const { user } = renderRemote({ server, path: PATH, permissions: SYS_ADMIN_PERMISSIONS });
    const form = await section();
    const voltage = within(form).getByRole('group', { name: 'Tube voltage' });
    const min = within(voltage).getByRole('spinbutton', { name: /^Minimum/ });
    await user.clear(min);
    await user.click(within(form).getByRole('button', { name: 'Save marking scheme' }));
    expect(min).toHaveAccessibleDescription(expect.stringContaining('This field is required.'));
    expect(sent).toEqual([]);

    await user.type(min, '90');
    await user.click(within(form).getByRole('button', { name: 'Save marking scheme' }));
    const max = within(voltage).getByRole('spinbutton', { name: /^Maximum/ });
    await screen.findByRole('alert');
    expect(max).toHaveAccessibleDescription(expect.stringContaining('must not be below the minimum'));
    expect(sent).toHaveLength(1);
  });

  it('turning marking off saves no scheme; in German', async () => {
    await i18next.changeLanguage('de');
    const { sent } = serveMarkingScheme(server, 5, SCHEME);
    const { user } = renderRemote({ server, path: PATH, permissions: SYS_ADMIN_PERMISSIONS });
    const form = await screen.findByRole('form', { name: 'Bewertungsschema' });
    await user.click(within(form).getByRole('checkbox', { name: 'Bilder dieser Konfiguration bewerten' }));
    expect(within(form).queryByRole('group', { name: 'Röhrenspannung' })).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Bewertungsschema speichern' }));
    expect(await screen.findByText('Bewertungsschema gespeichert')).toBeInTheDocument();
    expect(sent).toEqual([{ scheme: null }]);
  });
});
