import { useId, useMemo, useState } from 'react';
import styled from 'styled-components';
import { isUuid, type Evidence, type Report } from '@portal/contract';
import { NotFoundError } from '@portal/shared-auth';
import {
  NotFoundView,
  SomethingWentWrongView,
  Spinner,
  useLocation,
  usePageTitle,
  useParams,
  useTranslation,
} from '@portal/shared-ui';
import { Pagination } from '@portal/shared-ui/widgets';
import { AnalysisStatusIcon } from '../../../components/analysis-status-icon';
import { formatNumber, formatReportTime } from '../../../lib/format';
import { useAnalysisStatuses } from '../api/get-analysis-statuses';
import { useReport } from '../api/get-report';
import { useReportImages } from '../api/get-report-images';
import { pageOfEvidence, paginateEvidence } from '../lib/evidence-pages';
import type { ReportLocationState } from './analysis-route';
import { EvidenceArticle } from './evidence-article';
import { GradeSection } from './grade-section';
import { ReportFeedbackSection } from './report-feedback-section';
import { LessonView } from './lesson-view';
import { ReportBreadcrumbs } from './report-breadcrumbs';


const Summary = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: ${({ theme }) => `${theme.space.xs} ${theme.space.lg}`};
  margin: ${({ theme }) => `0 0 ${theme.space.xl}`};

  dt {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }

  dd {
    margin: 0;
  }
`;

const Details = styled.section`
  margin: ${({ theme }) => `0 0 ${theme.space.xl}`};
  padding: ${({ theme }) => theme.space.lg};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};

  h2 {
    margin-top: 0;
    font-size: ${({ theme }) => theme.fontSizes.lg};
  }
`;

const Loading = styled.div`
  display: flex;
  justify-content: center;
  padding: ${({ theme }) => theme.space.xxl};
`;

/** /report/{reportId}: one report with its images, lessons and analysis (docs/requirements.md#main-area, #data, #analysis). */
export function ReportPage() {
  const { reportId = '' } = useParams();
  const valid = isUuid(reportId);
  const { data: report, error, mutate } = useReport(valid ? reportId : null);

  if (!valid) return <NotFoundView />;
  if (error instanceof NotFoundError) return <NotFoundView onRefresh={() => void mutate()} />;
  if (error) return <SomethingWentWrongView />;
  if (!report) return <LoadingReport />;
  return <ReportView reportId={reportId} report={report} />;
}

function LoadingReport() {
  const { t } = useTranslation('reports');
  return (
    <Loading>
      <Spinner label={t('report.loading')} />
    </Loading>
  );
}

function ReportView({ reportId, report }: { reportId: string; report: Report }) {
  const { t, i18n } = useTranslation('reports');
  usePageTitle(report.description);
  const location = useLocation();
  const detailsId = useId();
  const imagesId = useId();
  const { data: statuses } = useAnalysisStatuses();
  const returned = location.state as ReportLocationState | null;
  // One form at a time; the action route (analysis-route.tsx) may ask for one to start open.
  const [editingId, setEditingId] = useState<number | null>(() => returned?.analyseEvidenceId ?? null);

  const pages = useMemo(() => paginateEvidence(report.evidence), [report.evidence]);
  // Back from the analysis route, the page of the evidence just analysed.
  const [page, setPage] = useState(() => {
    const evidenceId = returned?.analyseEvidenceId ?? returned?.savedEvidenceId;
    return (evidenceId !== undefined && pageOfEvidence(pages, evidenceId)) || 1;
  });
  // A page past the end (the report changed meanwhile) shows the last one.
  const current = Math.min(page, pages.length);
  const shown = pages[current - 1];
  // docs/requirements.md#analysis "paging resets editing".
  const changePage = (next: number) => {
    setPage(next);
    setEditingId(null);
  };

  // Signed URLs of this page's images only: one call, within the API's limit of ids per call.
  const images = useReportImages(reportId, shown?.imageIds ?? []);
  const imageUrl = (evidence: Evidence): string | null | undefined => {
    if (images.error) return null;
    if (!images.data) return undefined;
    return images.data.find((image) => image.id === evidence.id)?.url ?? null;
  };


  const renderEvidence = (evidence: Evidence, index: number) => (
    <EvidenceArticle
      key={evidence.id}
      reportId={reportId}
      number={index + 1}
      evidence={evidence}
      imageUrl={imageUrl(evidence)}
      isOwner={report.isOwner}
      canGiveFeedback={report.canGiveFeedback}
      statuses={statuses}
      editing={editingId === evidence.id}
      onEdit={() => setEditingId(evidence.id)}
      onClose={() => setEditingId(null)}
    />
  );

  const details = report.reportDetails;
  return (
    <article>
      <ReportBreadcrumbs report={report} />
      <h1>{report.description}</h1>
      <Summary>
        <dt>{t('report.simulation')}</dt>
        <dd>{report.simulation}</dd>
        <dt>{t('report.mode')}</dt>
        <dd>{t(`report.modes.${report.mode}`, { defaultValue: report.mode })}</dd>
        <dt>{t('report.learner')}</dt>
        <dd>{report.userName}</dd>
        <dt>{t('report.recorded')}</dt>
        <dd>{formatReportTime(report.recorded, i18n.language)}</dd>
        <dt>{t('report.analysis')}</dt>
        <dd>
          <AnalysisStatusIcon summary={report.analysisStatusSummary} />
        </dd>
      </Summary>

      {details && (
        <Details aria-labelledby={detailsId}>
          <h2 id={detailsId}>{t('report.details')}</h2>
          {details.summary && <p>{details.summary}</p>}
          <Summary>
            {details.score !== undefined && (
              <>
                <dt>{t('report.reportedScore')}</dt>
                <dd>{t('report.scoreValue', { score: formatNumber(details.score, i18n.language) })}</dd>
              </>
            )}
            {details.durationSeconds !== undefined && (
              <>
                <dt>{t('report.duration')}</dt>
                <dd>
                  {t('report.durationValue', {
                    minutes: Math.floor(details.durationSeconds / 60),
                    seconds: details.durationSeconds % 60,
                  })}
                </dd>
              </>
            )}
          </Summary>
        </Details>
      )}

      <GradeSection report={report} />
      <ReportFeedbackSection report={report} />

      {pages.length > 1 && (
        <p role="status">{t('report.evidencePage', { page: current, total: pages.length })}</p>
      )}

      {shown?.lessons.map((lesson) => (
        <LessonView key={lesson.index} lesson={lesson} renderPart={(part) => renderEvidence(part.evidence, part.evidenceIndex)} />
      ))}

      {shown && shown.images.length > 0 && (
        <section aria-labelledby={imagesId}>
          <h2 id={imagesId}>{t('report.images')}</h2>
          {shown.images.map(({ evidence, index }) => renderEvidence(evidence, index))}
        </section>
      )}
      {pages.length > 1 && <Pagination page={current} totalPages={pages.length} onPageChange={changePage} />}
      {report.evidence.length === 0 && <p>{t('report.noEvidence')}</p>}
    </article>
  );
}
