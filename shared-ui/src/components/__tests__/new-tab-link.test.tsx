import { screen } from '@testing-library/react';
import { NewTabLink } from '../new-tab-link';
import { renderApp } from '../../test/render';

describe('NewTabLink', () => {
  it('opens in a new tab without an opener and says so in its accessible name', () => {
    renderApp(<NewTabLink href="https://lms.example/d2l/home">Open Brightspace</NewTabLink>);
    const link = screen.getByRole('link', { name: 'Open Brightspace (opens in a new tab)' });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveAttribute('href', 'https://lms.example/d2l/home');
  });
});
