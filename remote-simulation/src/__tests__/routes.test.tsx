import { screen } from '@testing-library/react';
import { setupTestServer } from '../testing/msw-server';
import { renderRemote } from '../testing/render-remote';

const server = setupTestServer();

describe('simulation routes', () => {
  it('show the Simulations landing screen at the mount path, with its own translations', async () => {
    renderRemote({ server });

    expect(await screen.findByRole('heading', { name: 'Simulations', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/Choose a simulation/)).toBeInTheDocument();
    expect(document.title).toBe('Simulations - Simulation Portal');
  });

  it('answer an unknown sub-path with page not found', async () => {
    renderRemote({ server, path: '/simulation/nope/nothing' });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
