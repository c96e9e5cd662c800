import { useEffect, useRef } from 'react';
import type { FieldErrors } from '@portal/contract';
import { Navigate, PageSpinner, useLocation, useNavigate, useParams, useTranslation } from '@portal/shared-ui';
import { useReportsBase } from '../../../components/reports-base';
import type { AnalysedStatus } from '../../../config/constants';
import { paths } from '../../../config/paths';
import { useUpdateAnalysis } from '../api/update-analysis';

/** What the report's analysis form sends to the route, as a form would post it. */
export interface AnalysisSubmission {
  analysisStatus: AnalysedStatus;
  analysis: string;
}

/** History state of a visit to the analysis route: the submission, when it comes from the form. */
export interface AnalysisRouteState {
  submission?: AnalysisSubmission;
}

/** What the report page reads from history state when the route returns to it. */
export interface ReportLocationState {
  /** The image whose analysis form starts open. */
  analyseEvidenceId?: number;
  /** A submission the API refused, shown again with its errors (null: no field errors, it failed). */
  refused?: { values: AnalysisSubmission; errors: FieldErrors | null };
  /** The image whose analysis was just saved: focus goes back to it. */
  savedEvidenceId?: number;
}

/**
 * /report/{reportId}/evidence/{evidenceId}/analysis (docs/requirements.md#main-area): the action-only route that saves and
 * returns to the report. The host mounts this remote with useRoutes, which has no data-router
 * actions, so the report's analysis form "posts" by navigating here with its values in history
 * state, replacing the report's entry; this element does the PUT (docs/requirements.md#calls) and replaces itself with
 * the report again — so history holds the report once, as after a POST-redirect-GET. A refused save
 * returns with the values and the server's errors, which the report's form shows. A visit without
 * a submission (a link, a reload) has nothing to save: it opens that image's form on the report.
 */
export function AnalysisRoute() {
  const { reportId = '', evidenceId } = useParams();
  const base = useReportsBase();
  const location = useLocation();
  const reportHref = paths.report.getHref(base, reportId);
  const id = Number(evidenceId);
  if (!Number.isInteger(id) || id <= 0) return <Navigate to={reportHref} replace />;
  const submission = (location.state as AnalysisRouteState | null)?.submission;
  if (!submission) {
    const state: ReportLocationState = { analyseEvidenceId: id };
    return <Navigate to={reportHref} replace state={state} />;
  }
  return <SaveAnalysis key={location.key} reportId={reportId} evidenceId={id} submission={submission} reportHref={reportHref} />;
}

function SaveAnalysis({
  reportId,
  evidenceId,
  submission,
  reportHref,
}: {
  reportId: string;
  evidenceId: number;
  submission: AnalysisSubmission;
  reportHref: string;
}) {
  const { t } = useTranslation('reports');
  const save = useUpdateAnalysis(reportId);
  const navigate = useNavigate();
  // One PUT per visit, also when StrictMode runs the effect twice.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      let state: ReportLocationState;
      try {
        const result = await save(evidenceId, submission);
        if (result.isSuccess) state = { savedEvidenceId: evidenceId };
        else {
          const errors = result.isError && result.error && typeof result.error === 'object' ? result.error : null;
          state = { analyseEvidenceId: evidenceId, refused: { values: submission, errors } };
        }
      } catch (error) {
        console.error('Saving the analysis failed', error);
        state = { analyseEvidenceId: evidenceId, refused: { values: submission, errors: null } };
      }
      navigate(reportHref, { replace: true, state });
    })();
  }, [evidenceId, navigate, reportHref, save, submission]);

  return <PageSpinner label={t('analysis.saving')} />;
}
