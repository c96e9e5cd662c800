import { screen } from '@testing-library/react';
import { PageSpinner, Spinner } from '../spinner';
import { StatusPill } from '../../widgets/status-pill';
import { TableSkeleton } from '../skeleton';
import { renderApp } from '../../test/render';

describe('Spinner', () => {
  it('is a status with the hidden text "Loading..."', () => {
    renderApp(<Spinner />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
  });

  it('is centred for whole pages with the same hidden text', () => {
    renderApp(<PageSpinner />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
  });
});

describe('TableSkeleton', () => {
  it('defaults to 4 columns and 10 rows', () => {
    const { container } = renderApp(<TableSkeleton />);
    const rows = container.querySelectorAll('tr');
    expect(rows).toHaveLength(10);
    expect(rows[0]!.querySelectorAll('td')).toHaveLength(4);
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
  });
});

describe('StatusPill', () => {
  it('says Active or Inactive', () => {
    renderApp(
      <>
        <StatusPill active />
        <StatusPill active={false} />
      </>,
    );
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Inactive')).toBeInTheDocument();
  });
});
