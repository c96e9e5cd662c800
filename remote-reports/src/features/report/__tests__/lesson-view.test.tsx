import { screen, within } from '@testing-library/react';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { lessonPart, report, REPORT_UUID, serveReport } from '../../../testing/report-fixtures';

const server = setupTestServer();

describe('a radiation-safety lesson report', () => {
  beforeEach(() => {
    serveReport(
      server,
      report({
        description: 'Radiation safety lesson',
        evidence: [
          lessonPart(21, { index: 0, partIndex: 0, doseTime: 30, doses: { eye: 1, chest: 2, hip: 0.5 } }),
          lessonPart(22, { index: 0, partIndex: 1, doseTime: 60, doses: { eye: 2.5, chest: 4.006, hip: 0.5 } }),
        ],
      }),
    );
  });

  it('shows both parts of the lesson with doses for 900 s of fluoroscopy and their difference', async () => {
    renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: ['global.view_own_reports'] });

    const lesson = await screen.findByRole('region', { name: 'Lesson 1' });
    const table = within(lesson).getByRole('table', { name: 'Operator doses over 900 s of fluoroscopy (µSv)' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent));
    expect(rows).toEqual([
      ['Location', 'Part 1', 'Part 2', 'Difference'],
      ['Eye', '30', '37.5', '25 %'],
      // 60 → 60.09 µSv is a 0.15 % change: shown as 0.
      ['Chest', '60', '60.09', '0 %'],
      ['Hip', '15', '7.5', '-50 %'],
    ]);

    expect(within(lesson).getByRole('article', { name: 'Image 1: Lesson 1 part 1' })).toBeInTheDocument();
    expect(within(lesson).getByRole('article', { name: 'Image 2: Lesson 1 part 2' })).toBeInTheDocument();
  });

  it('draws the doses as a bar chart that carries every value', async () => {
    renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: ['global.view_own_reports'] });

    const chart = await screen.findByRole('img', { name: 'Operator doses of lesson 1' });
    expect(chart).toHaveAccessibleDescription(
      'Part 1: Eye 30 µSv, Chest 60 µSv, Hip 15 µSv. Part 2: Eye 37.5 µSv, Chest 60.09 µSv, Hip 7.5 µSv',
    );
    const bars = chart.querySelectorAll('rect');
    expect(bars).toHaveLength(6);
    const labels = Array.from(chart.querySelectorAll('g[data-series] text')).map((t) => t.textContent);
    expect(labels).toEqual(['30', '37.5', '60', '60.09', '15', '7.5']);
    // Bars are drawn to scale: the tallest value has the tallest bar.
    const heights = Array.from(bars).map((bar) => Number(bar.getAttribute('height')));
    expect(Math.max(...heights)).toBe(heights[3]);
    expect(heights[5]).toBeCloseTo((heights[3] as number) * (7.5 / 60.09));
  });
});
