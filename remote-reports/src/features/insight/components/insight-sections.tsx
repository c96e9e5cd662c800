import { useId, useState } from 'react';
import styled from 'styled-components';
import type { Insight } from '@portal/contract';
import { Link, useTranslation } from '@portal/shared-ui';
import { Pagination } from '@portal/shared-ui/widgets';
import { BarChart } from '../../../components/charts/bar-chart';
import { useReportsBase } from '../../../components/reports-base';
import { TABLE_PAGE_SIZE } from '../../../config/constants';
import { paths } from '../../../config/paths';
import { useInsightFormat } from '../lib/use-insight-format';
import { ChartWithTable } from './chart-with-table';

const Totals = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(140px, 1fr));
  gap: ${({ theme }) => theme.space.md};
  margin: ${({ theme }) => `0 0 ${theme.space.xl}`};

  div {
    padding: ${({ theme }) => theme.space.md};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.md};
  }

  dt {
    color: ${({ theme }) => theme.colors.textMuted};
  }

  dd {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.xl};
    font-weight: ${({ theme }) => theme.fontWeights.bold};
  }
`;

/** The totals of the range, as a description list. */
function InsightTotals({ totals }: { totals: Insight['totals'] }) {
  const { t } = useTranslation('reports');
  const f = useInsightFormat();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('insight.totals.heading')}</h2>
      <Totals>
        <div>
          <dt>{t('insight.totals.sessions')}</dt>
          <dd>{f.count(totals.sessions)}</dd>
        </div>
        <div>
          <dt>{t('insight.totals.activeLearners')}</dt>
          <dd>{f.count(totals.activeLearners)}</dd>
        </div>
        <div>
          <dt>{t('insight.totals.images')}</dt>
          <dd>{f.count(totals.images)}</dd>
        </div>
        <div>
          <dt>{t('insight.totals.meanMark')}</dt>
          <dd>{f.mark(totals.meanMark)}</dd>
        </div>
      </Totals>
    </section>
  );
}

function WeeksSection({ weeks }: { weeks: Insight['weeks'] }) {
  const { t } = useTranslation('reports');
  const f = useInsightFormat();
  const headingId = useId();
  const title = t('insight.weeks.heading');
  const caption = t('insight.weeks.caption');
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <ChartWithTable
        chart={
          <BarChart
            title={title}
            description={t('insight.weeks.description', { count: weeks.length, table: caption })}
            categories={weeks.map((w) => t('insight.weeks.weekOf', { day: f.day(w.weekStart) }))}
            series={[
              { label: t('insight.weeks.sessions'), values: weeks.map((w) => w.sessions) },
              { label: t('insight.weeks.activeLearners'), values: weeks.map((w) => w.activeLearners) },
            ]}
            format={f.count}
            noValue={f.none}
          />
        }
        caption={caption}
        columns={[
          { header: t('insight.weeks.week') },
          { header: t('insight.weeks.sessions'), numeric: true },
          { header: t('insight.weeks.activeLearners'), numeric: true },
        ]}
        rows={weeks.map((w) => ({ key: w.weekStart, name: f.day(w.weekStart), cells: [f.count(w.sessions), f.count(w.activeLearners)] }))}
      />
    </section>
  );
}

function ProjectionsSection({ projections }: { projections: Insight['projections'] }) {
  const { t } = useTranslation('reports');
  const f = useInsightFormat();
  const headingId = useId();
  const caption = t('insight.projections.caption');
  const names = projections.map((p) => p.projection);
  // Rates are shares (0–1) and marks percent: one axis in percent for the three.
  const percent = (value: number | null) => (value === null ? null : value * 100);
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('insight.projections.heading')}</h2>
      <ChartWithTable
        chart={
          <div>
            <BarChart
              title={t('insight.projections.ratesChart')}
              description={t('insight.projections.ratesDescription', { count: projections.length, table: caption })}
              categories={names}
              series={[
                { label: t('insight.projections.repeatRate'), values: projections.map((p) => percent(p.repeatRate)) },
                { label: t('insight.projections.rejectRate'), values: projections.map((p) => percent(p.rejectRate)) },
                { label: t('insight.projections.meanMark'), values: projections.map((p) => p.meanMark) },
              ]}
              format={(value) => f.mark(value)}
              noValue={f.none}
              minMax={100}
            />
            <BarChart
              title={t('insight.projections.doseChart')}
              description={t('insight.projections.doseDescription', { count: projections.length, table: caption })}
              categories={names}
              series={[
                { label: t('insight.projections.medianDose'), values: projections.map((p) => p.medianDoseToDrl) },
                { label: t('insight.projections.p75Dose'), values: projections.map((p) => p.p75DoseToDrl) },
              ]}
              format={(value) => f.ratio(value)}
              noValue={f.none}
              reference={{ value: 1, label: t('insight.projections.drl') }}
            />
          </div>
        }
        caption={caption}
        columns={[
          { header: t('insight.projections.projection') },
          ...(['images', 'repeatRate', 'rejectRate', 'medianDose', 'p75Dose', 'meanMark'] as const).map((key) => ({
            header: t(`insight.projections.${key}`),
            numeric: true,
          })),
        ]}
        rows={projections.map((p) => ({
          key: p.projection,
          name: p.projection,
          cells: [f.count(p.images), f.rate(p.repeatRate), f.rate(p.rejectRate), f.ratio(p.medianDoseToDrl), f.ratio(p.p75DoseToDrl), f.mark(p.meanMark)],
        }))}
      />
    </section>
  );
}

function LearnersSection({ learners }: { learners: Insight['learners'] }) {
  const { t } = useTranslation('reports');
  const f = useInsightFormat();
  const base = useReportsBase();
  const headingId = useId();
  const [page, setPage] = useState(1);
  const totalPages = Math.max(1, Math.ceil(learners.length / TABLE_PAGE_SIZE));
  // A narrower filter can leave fewer pages than the one open.
  const current = Math.min(page, totalPages);
  const first = (current - 1) * TABLE_PAGE_SIZE;
  const shown = learners.slice(first, first + TABLE_PAGE_SIZE);
  const caption = t('insight.learners.caption');
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('insight.learners.heading')}</h2>
      {totalPages > 1 && (
        <p>{t('insight.learners.page', { first: first + 1, last: first + shown.length, total: learners.length })}</p>
      )}
      <ChartWithTable
        chart={
          <BarChart
            title={t('insight.learners.chart')}
            description={t('insight.learners.description', { count: shown.length, table: caption })}
            categories={shown.map((l) => l.name)}
            series={[{ label: t('insight.learners.meanMark'), values: shown.map((l) => l.meanMark) }]}
            format={(value) => f.mark(value)}
            noValue={t('insight.notMarked')}
            minMax={100}
          />
        }
        caption={caption}
        columns={[
          { header: t('insight.learners.learner') },
          { header: t('insight.learners.sessions'), numeric: true },
          { header: t('insight.learners.meanMark'), numeric: true },
          { header: t('insight.learners.change'), numeric: true },
          { header: t('insight.learners.lastActive') },
          { header: t('insight.learners.reports') },
        ]}
        rows={shown.map((l) => ({
          key: l.userId,
          name: l.name,
          cells: [
            f.count(l.sessions),
            f.mark(l.meanMark),
            f.change(l.firstToLastChange),
            f.day(l.lastActive),
            <Link key="reports" to={paths.learnerReports.getHref(base, { learner: l.userId })}>
              {t('insight.learners.viewReports', { name: l.name })}
            </Link>,
          ],
        }))}
      />
      {totalPages > 1 && <Pagination page={current} totalPages={totalPages} onPageChange={setPage} />}
    </section>
  );
}

/**
 * Everything the insight screen shows for a range with sessions. Loaded with its charts only on
 * /report/insight (a lazy import), so no other screen pays for them.
 */
export function InsightSections({ insight }: { insight: Insight }) {
  return (
    <>
      <InsightTotals totals={insight.totals} />
      <WeeksSection weeks={insight.weeks} />
      <ProjectionsSection projections={insight.projections} />
      <LearnersSection learners={insight.learners} />
    </>
  );
}
