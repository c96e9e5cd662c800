import { screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import type { UserPreference } from '@portal/contract';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { getPreference, lookups, putPreference } from '../../../testing/handlers';
import { USER_ID } from '../../../testing/fixtures';

const server = setupTestServer();
const route = `/user/${USER_ID}/preference`;

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('Preference page', () => {
  it('shows the stored language and skin tone as four swatches', async () => {
    server.use(lookups(), getPreference({ language: 'en', skinTone: 18002 }));
    renderApp({ server, route });

    expect(await screen.findByRole('combobox', { name: /Language/ })).toHaveValue('en');
    const group = screen.getByRole('radiogroup', { name: 'Skin tone' });
    expect(group.querySelectorAll('input[type="radio"]')).toHaveLength(4);
    expect(screen.getByRole('radio', { name: 'Medium' })).toBeChecked();
  });

  it('refuses to save without a language', async () => {
    const sent: UserPreference[] = [];
    server.use(
      lookups(),
      getPreference({ language: 'en', skinTone: null }),
      putPreference((body) => (sent.push(body), { status: 200, body })),
    );
    const { user } = renderApp({ server, route });

    await user.selectOptions(await screen.findByRole('combobox', { name: /Language/ }), '');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findAllByText('This field is required.')).not.toHaveLength(0);
    expect(screen.getByRole('combobox', { name: /Language/ })).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toEqual([]);
  });

  it('saves, confirms and switches the interface to the chosen language', async () => {
    const sent: UserPreference[] = [];
    server.use(
      lookups(),
      getPreference({ language: 'en', skinTone: null }),
      putPreference((body) => (sent.push(body), { status: 200, body })),
    );
    const { user } = renderApp({ server, route });

    await user.selectOptions(await screen.findByRole('combobox', { name: /Language/ }), 'de');
    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Einstellungen gespeichert')).toBeInTheDocument();
    expect(sent).toEqual([{ language: 'de', skinTone: 18004 }]);
    expect(i18next.language).toBe('de');
  });

  it('shows server field errors under their fields', async () => {
    server.use(
      lookups(),
      getPreference({ language: 'en', skinTone: null }),
      putPreference(() => ({ status: 400, body: { skinTone: ['Invalid pk "9" - object does not exist.'] } })),
    );
    const { user } = renderApp({ server, route });

    await user.click(await screen.findByRole('radio', { name: 'Light' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const messages = await screen.findAllByText('Invalid pk "9" - object does not exist.');
    expect(messages.some((m) => m.closest('fieldset'))).toBe(true);
    await waitFor(() => expect(screen.queryByText('Preferences saved')).not.toBeInTheDocument());
  });
});
