import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Breadcrumbs } from '../../components/breadcrumbs';
import { SearchInput } from '../search-input';
import { renderApp } from '../../test/render';

describe('SearchInput', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('is labelled and reports the text once typing pauses', async () => {
    const onChange = jest.fn();
    renderApp(<SearchInput onChange={onChange} label="Search organisations" />);
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    await user.type(screen.getByRole('searchbox', { name: 'Search organisations' }), 'royal');
    expect(onChange).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(300));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith('royal');
  });

  it('does not report on mount', () => {
    const onChange = jest.fn();
    renderApp(<SearchInput onChange={onChange} defaultValue="x" />);
    act(() => jest.advanceTimersByTime(1000));
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('x');
  });
});

describe('Breadcrumbs', () => {
  it('is a labelled navigation whose last item is the current page', () => {
    renderApp(
      <Breadcrumbs
        items={[
          { label: 'Administration', to: '/admin/organisation' },
          { label: 'St Mary', to: '/admin/organisation/1' },
          { label: 'Licences' },
        ]}
      />,
    );
    const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(nav).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Administration' })).toHaveAttribute(
      'href',
      '/admin/organisation',
    );
    expect(screen.getByText('Licences')).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('link', { name: 'Licences' })).not.toBeInTheDocument();
  });
});
