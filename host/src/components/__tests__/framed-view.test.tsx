import { render, screen } from '@testing-library/react';
import { FramedView } from '../framed-view';
import { setupTestServer } from '../../testing/msw-server';

// Starts i18next with the built strings, as bootstrap does before it renders this view.
setupTestServer();

describe('FramedView', () => {
  it('shows only the not-found view, under the page title as product name (no portal inside a frame)', () => {
    document.title = 'Simulation Portal';
    render(<FramedView />);

    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });
});
