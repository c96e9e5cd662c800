import { screen } from '@testing-library/react';
import { radiography } from '../testing/fixtures';
import { getProducts } from '../testing/handlers';
import { setupTestServer } from '../testing/msw-server';
import { renderRemote } from '../testing/render-remote';

const server = setupTestServer();

describe('simulation routes', () => {
  it('show the Simulations landing screen at the mount path, with its own translations', async () => {
    server.use(getProducts([radiography]));
    renderRemote({ server });

    expect(
      await screen.findByRole('heading', { name: 'Simulations', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Choose a simulation/)).toBeInTheDocument();
    expect(document.title).toBe('Simulations - Simulation Portal');
    expect(await screen.findByRole('link', { name: 'Radiography' })).toBeInTheDocument();
  });

  it('answer an unknown sub-path with page not found', async () => {
    renderRemote({ server, path: '/simulation/nope/nothing' });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('mount the same screens under /lti/simulation', async () => {
    server.use(getProducts([radiography]));
    renderRemote({ server, path: '/lti/simulation' });

    expect(await screen.findByRole('link', { name: 'Radiography' })).toHaveAttribute(
      'href',
      '/lti/simulation/1',
    );
  });
});
