import { screen, within } from '@testing-library/react';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';

const server = setupTestServer();

describe('Self-assessment', () => {
  it('says Brightspace is not linked when no learning platform is configured', async () => {
    renderApp({ server, route: '/self-assessment' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Self-assessment' })).toBeInTheDocument();
    const main = within(screen.getByRole('main'));
    expect(main.getByText('Brightspace is not linked to this environment')).toBeInTheDocument();
    expect(main.queryByRole('link', { name: /Open Brightspace/ })).not.toBeInTheDocument();
  });

  it('links to the learning platform in a new tab when one is configured', async () => {
    renderApp({ server, route: '/self-assessment', config: { brightspaceHost: 'https://lms.example.edu' } });

    await screen.findByRole('heading', { level: 1, name: 'Self-assessment' });
    const link = within(screen.getByRole('main')).getByRole('link', { name: 'Open Brightspace (opens in a new tab)' });
    expect(link.getAttribute('href')).toMatch(/^https:\/\/lms\.example\.edu\//);
    expect(link).toHaveAttribute('target', '_blank');
  });
});
