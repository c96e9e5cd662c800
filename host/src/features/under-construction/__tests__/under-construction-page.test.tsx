import { screen } from '@testing-library/react';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';

const server = setupTestServer();

describe('Under construction', () => {
  it('says the page is being built and links back to the portal', async () => {
    renderApp({ server, route: '/under-construction' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Under construction' })).toBeInTheDocument();
    expect(screen.getByText('This page is being built. Please come back later.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the portal' })).toHaveAttribute('href', '/');
  });
});
