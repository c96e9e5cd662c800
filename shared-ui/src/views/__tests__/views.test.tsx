import { render, screen } from '@testing-library/react';
import { ErrorFallbackView, SomethingWentWrongView, UnavailableView } from '../error-views';
import { NotFoundView } from '../not-found-view';
import { UiProvider } from '../../theme/ui-provider';
import { renderApp } from '../../test/render';

describe('NotFoundView', () => {
  it('shows the not-found heading, message and a link home', () => {
    renderApp(<NotFoundView />);
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText("Sorry, we couldn't find the page you're looking for.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to home page' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('button', { name: 'Refresh' })).not.toBeInTheDocument();
  });

  it('offers Refresh when asked to', async () => {
    const onRefresh = jest.fn();
    const { user } = renderApp(<NotFoundView onRefresh={onRefresh} />);
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(onRefresh).toHaveBeenCalledTimes(1);
  });

  it('still links home when rendered outside a router', () => {
    render(
      <UiProvider productName="Simulation Portal">
        <NotFoundView />
      </UiProvider>,
    );
    expect(screen.getByRole('link', { name: 'Go to home page' })).toHaveAttribute('href', '/');
  });
});

describe('error views', () => {
  it('ErrorFallbackView says something went wrong and to contact the administrator', () => {
    renderApp(<ErrorFallbackView />);
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText('If the problem persists, please contact your administrator.')).toBeInTheDocument();
  });

  it('SomethingWentWrongView links home only when given a target', () => {
    renderApp(<SomethingWentWrongView homeTo="/lti/launch" />);
    expect(screen.getByText('Something went wrong. Please contact your administrator.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to home page' })).toHaveAttribute('href', '/lti/launch');
  });

  it('UnavailableView explains and retries', async () => {
    const onRetry = jest.fn();
    const { user } = renderApp(<UnavailableView area="Reports" onRetry={onRetry} />);
    expect(screen.getByRole('heading', { name: 'This area is unavailable right now.' })).toBeInTheDocument();
    expect(screen.getByText('Reports could not be loaded. Please try again in a moment.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
