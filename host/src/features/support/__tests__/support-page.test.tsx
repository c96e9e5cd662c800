import { screen, within } from '@testing-library/react';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';

const server = setupTestServer();

describe('Support centre', () => {
  it('has its title, a contact section with a mail link, the FAQ and the system requirements', async () => {
    renderApp({ server, route: '/support' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Support centre' })).toBeInTheDocument();
    const contact = screen.getByRole('region', { name: 'Contact us' });
    expect(within(contact).getByRole('link')).toHaveAttribute('href', expect.stringMatching(/^mailto:.+@.+/));
    const faq = screen.getByRole('region', { name: 'Frequently asked questions' });
    expect(within(faq).getAllByRole('term').length).toBeGreaterThan(0);
    expect(within(faq).getAllByRole('term')).toHaveLength(within(faq).getAllByRole('definition').length);
    expect(screen.getByRole('region', { name: /requirements/i })).toBeInTheDocument();
    expect(document.title).toBe('Support centre - Simulation Portal');
  });
});
