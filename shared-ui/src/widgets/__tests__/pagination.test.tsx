import { screen, within } from '@testing-library/react';
import { getPageItems } from '../page-items';
import { Pagination } from '../pagination';
import { renderApp } from '../../test/render';

function pageNumbers() {
  const nav = screen.getByRole('navigation', { name: 'Pagination' });
  return within(nav)
    .getAllByRole('button', { name: /^Page \d+$/ })
    .map((b) => Number(b.textContent));
}

describe('Pagination', () => {
  it('disables previous on the first page and enables next', () => {
    renderApp(<Pagination page={1} totalPages={5} onPageChange={() => {}} />);
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });

  it('disables next on the last page and enables previous', () => {
    renderApp(<Pagination page={5} totalPages={5} onPageChange={() => {}} />);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
  });

  it('shows every page when they fit in six links', () => {
    renderApp(<Pagination page={3} totalPages={6} onPageChange={() => {}} />);
    expect(pageNumbers()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(screen.queryByText('…')).not.toBeInTheDocument();
  });

  it('shows first, last and a window with ellipses on both sides for page 7 of 20', () => {
    renderApp(<Pagination page={7} totalPages={20} onPageChange={() => {}} />);
    expect(pageNumbers()).toEqual([1, 6, 7, 8, 9, 20]);
    expect(screen.getAllByText('…')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Page 7' })).toHaveAttribute('aria-current', 'page');
  });

  it('keeps six links at the start and at the end of a long list', () => {
    expect(getPageItems(1, 20)).toEqual([1, 2, 3, 4, 5, 'end-ellipsis', 20]);
    expect(getPageItems(20, 20)).toEqual([1, 'start-ellipsis', 16, 17, 18, 19, 20]);
    expect(getPageItems(3, 20)).toEqual([1, 2, 3, 4, 5, 'end-ellipsis', 20]);
  });

  it('reports the chosen page, and previous/next move by one', async () => {
    const onPageChange = jest.fn();
    const { user } = renderApp(<Pagination page={7} totalPages={20} onPageChange={onPageChange} />);
    await user.click(screen.getByRole('button', { name: 'Page 20' }));
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPageChange.mock.calls).toEqual([[20], [6], [8]]);
  });

  it('renders nothing when there are no pages and rejects a maxLinks below 3', () => {
    const { container } = renderApp(<Pagination page={1} totalPages={0} onPageChange={() => {}} />);
    expect(container).toBeEmptyDOMElement();
    expect(() => getPageItems(1, 10, 2)).toThrow('maxLinks must be a whole number >= 3');
  });
});
