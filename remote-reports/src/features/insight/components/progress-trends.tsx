import { useId } from 'react';
import styled from 'styled-components';
import type { ProgressProjection } from '@portal/contract';
import { Link, useTranslation } from '@portal/shared-ui';
import { LineChart } from '../../../components/charts/line-chart';
import { useReportsBase } from '../../../components/reports-base';
import { paths } from '../../../config/paths';
import { useInsightFormat } from '../lib/use-insight-format';
import { ChartWithTable } from './chart-with-table';

const Grid = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
`;

function ProjectionTrend({ projection }: { projection: ProgressProjection }) {
  const { t } = useTranslation('reports');
  const f = useInsightFormat();
  const base = useReportsBase();
  const headingId = useId();
  const { points } = projection;
  const caption = t('progress.caption', { projection: projection.projection });
  const first = points[0];
  const last = points.at(-1);
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{projection.projection}</h2>
      <ChartWithTable
        chart={
          <LineChart
            title={t('progress.chart', { projection: projection.projection })}
            description={t('progress.description', {
              count: points.length,
              projection: projection.projection,
              first: f.mark(first?.mark ?? null),
              firstDay: f.day(first?.recorded ?? null),
              last: f.mark(last?.mark ?? null),
              lastDay: f.day(last?.recorded ?? null),
              table: caption,
            })}
            points={points.map((p) => ({
              value: p.mark,
              label: t('progress.point', { day: f.time(p.recorded), mark: f.mark(p.mark) }),
              href: paths.report.getHref(base, p.reportId),
            }))}
            format={(value) => f.mark(value)}
            minMax={100}
          />
        }
        caption={caption}
        columns={[{ header: t('progress.recorded') }, { header: t('progress.mark'), numeric: true }, { header: t('progress.report') }]}
        rows={points.map((p) => ({
          key: p.reportId,
          name: f.time(p.recorded),
          cells: [
            f.mark(p.mark),
            <Link key="report" to={paths.report.getHref(base, p.reportId)}>
              {t('progress.viewReport', { day: f.time(p.recorded) })}
            </Link>,
          ],
        }))}
      />
    </section>
  );
}

/** One small trend per projection, each with its table; loaded only on /report/progress. */
export function ProgressTrends({ projections }: { projections: readonly ProgressProjection[] }) {
  return (
    <Grid>
      {projections.map((p) => (
        <ProjectionTrend key={p.projection} projection={p} />
      ))}
    </Grid>
  );
}
