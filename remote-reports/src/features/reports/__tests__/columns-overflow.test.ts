import { columnsOverflow, GRID_MIN_COLUMN_WIDTH } from '../lib/columns-overflow';

// The learner reports' columns at their narrowest: simulation, session, user, recorded, status, report.
const LEARNER_COLUMNS = [{ minWidth: 160 }, { minWidth: 160 }, { minWidth: 180 }, { minWidth: 190 }, { minWidth: 150 }, { minWidth: 150 }];

describe('columns that do not fit the grid', () => {
  it('overflow a phone-wide grid (390 px) but not a desktop one', () => {
    expect(columnsOverflow(LEARNER_COLUMNS, 390 - 32)).toBe(true);
    expect(columnsOverflow(LEARNER_COLUMNS, 1024)).toBe(false);
    expect(columnsOverflow(LEARNER_COLUMNS, 990)).toBe(false);
    expect(columnsOverflow(LEARNER_COLUMNS, 989)).toBe(true);
  });

  it('count a column without its own narrowest width at the grid default', () => {
    expect(columnsOverflow([{}, {}], 2 * GRID_MIN_COLUMN_WIDTH)).toBe(false);
    expect(columnsOverflow([{}, {}], 2 * GRID_MIN_COLUMN_WIDTH - 1)).toBe(true);
  });

  it('say nothing while the grid is not laid out', () => {
    expect(columnsOverflow(LEARNER_COLUMNS, 0)).toBe(false);
  });
});
