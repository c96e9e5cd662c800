import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { DataTable, type DataTableColumn } from '../data-table';
import { renderApp } from '../../test/render';

interface Organisation {
  id: number;
  name: string;
  isActive: boolean;
}

const columns: DataTableColumn<Organisation>[] = [
  { key: 'name', header: 'Name', sortable: true },
  {
    key: 'isActive',
    header: 'Status',
    sortable: true,
    render: (row) => (row.isActive ? 'yes' : 'no'),
  },
  { key: 'edit', header: 'Edit' },
];

const rows: Organisation[] = [
  { id: 1, name: 'St Mary', isActive: true },
  { id: 2, name: 'Royal Free', isActive: false },
];

function Sortable({
  initial = '',
  onChange = () => {},
}: {
  initial?: string;
  onChange?: (o: string) => void;
}) {
  const [ordering, setOrdering] = useState(initial);
  return (
    <DataTable
      columns={columns}
      rows={rows}
      ordering={ordering}
      onOrderingChange={(next) => {
        onChange(next);
        setOrdering(next);
      }}
    />
  );
}

describe('DataTable', () => {
  it('renders rows with plain values and custom cells', () => {
    renderApp(<DataTable columns={columns} rows={rows} ordering="" onOrderingChange={() => {}} />);
    const [, first] = screen.getAllByRole('row');
    expect(
      within(first!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['St Mary', 'yes', '']);
  });

  it('toggles a sortable column between ascending and descending and never removes the sort', async () => {
    const onChange = jest.fn();
    const { user } = renderApp(<Sortable onChange={onChange} />);
    const header = () => screen.getByRole('columnheader', { name: /Name/ });
    expect(header()).toHaveAttribute('aria-sort', 'none');

    const button = screen.getByRole('button', { name: 'Name' });
    await user.click(button);
    expect(header()).toHaveAttribute('aria-sort', 'ascending');
    await user.click(button);
    expect(header()).toHaveAttribute('aria-sort', 'descending');
    await user.click(button);
    expect(header()).toHaveAttribute('aria-sort', 'ascending');
    expect(onChange.mock.calls).toEqual([['name'], ['-name'], ['name']]);
  });

  it('sorts a newly chosen column ascending', async () => {
    const onChange = jest.fn();
    const { user } = renderApp(<Sortable initial="-name" onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: 'Status' }));
    expect(onChange).toHaveBeenCalledWith('isActive');
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'none');
  });

  it('has no sort button on a column that is not sortable', () => {
    renderApp(<Sortable />);
    expect(screen.getByRole('columnheader', { name: 'Edit' })).not.toHaveAttribute('aria-sort');
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('shows ten skeleton rows and a loading status while loading', () => {
    renderApp(
      <DataTable columns={columns} rows={[]} loading ordering="" onOrderingChange={() => {}} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
    const bodyRows = screen.getAllByRole('row').slice(1);
    expect(bodyRows).toHaveLength(10);
    expect(within(bodyRows[0]!).getAllByRole('cell')).toHaveLength(3);
    expect(screen.queryByText('No records found')).not.toBeInTheDocument();
  });

  it('says "No records found" when there are no rows', () => {
    renderApp(<DataTable columns={columns} rows={[]} ordering="" onOrderingChange={() => {}} />);
    expect(screen.getByText('No records found')).toBeInTheDocument();
  });

  it('shows an error notice when loading failed', () => {
    renderApp(
      <DataTable
        columns={columns}
        rows={[]}
        error={new Error('500')}
        ordering=""
        onOrderingChange={() => {}}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('The data could not be loaded.');
    expect(screen.queryByText('No records found')).not.toBeInTheDocument();
  });
});
