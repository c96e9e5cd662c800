import { Navigate, useParams } from '@portal/shared-ui';
import { useReportsBase } from '../../../components/reports-base';
import { paths } from '../../../config/paths';

/** What the report page reads from history state to open one image's analysis form. */
export interface ReportLocationState {
  analyseEvidenceId?: number;
}

/**
 * /report/{reportId}/evidence/{evidenceId}/analysis (spec §2: an action-only route that returns
 * to the report). The host mounts this remote with useRoutes, which has no data-router actions,
 * so nothing can be POSTed to this URL. It is therefore a link target: it goes back to
 * /report/{reportId} at once (replacing itself in history, so Back does not land here again) and
 * asks the report to open that image's analysis form; saving then happens there, through the
 * same form and PUT as the "Analyse" button. Only the owner ever sees the form.
 */
export function AnalysisRoute() {
  const { reportId = '', evidenceId } = useParams();
  const base = useReportsBase();
  const id = Number(evidenceId);
  const state: ReportLocationState | null = Number.isInteger(id) && id > 0 ? { analyseEvidenceId: id } : null;
  return <Navigate to={paths.report.getHref(base, reportId)} replace state={state} />;
}
