import { render, screen } from '@testing-library/react';
import { FramedView } from '../framed-view';
import { mayRunFramed, signInCallbackBase } from '../may-run-framed';
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

describe('mayRunFramed', () => {
  it('lets only the LTI pages run inside a learning platform\'s frame', () => {
    for (const path of ['/lti/launch', '/lti/open', '/lti/simulation/launch', '/lti/error']) {
      expect(mayRunFramed(path)).toBe(true);
    }
    for (const path of ['/', '/lti', '/ltix/launch', '/simulation', '/admin/lti/launch', '/confirm-email']) {
      expect(mayRunFramed(path)).toBe(false);
    }
  });
});

describe('signInCallbackBase', () => {
  it('returns the sign-in of a page a platform may frame to /lti/, every other page to the root', () => {
    for (const path of ['/lti/launch', '/lti/auth/callback', '/lti/simulation/launch']) {
      expect(signInCallbackBase(path)).toBe('/lti');
    }
    for (const path of ['/', '/auth/callback', '/lti', '/ltix/launch', '/admin/lti/launch']) {
      expect(signInCallbackBase(path)).toBe('');
    }
  });
});
