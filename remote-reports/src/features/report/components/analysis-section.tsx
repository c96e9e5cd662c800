import { useEffect, useId, useRef } from 'react';
import styled from 'styled-components';
import type { Evidence, LookupItem } from '@portal/contract';
import { Button, useLocation, useTranslation } from '@portal/shared-ui';
import { ANALYSIS_STATUS } from '../../../config/constants';
import { useAnalysisStatusLabel } from '../lib/analysis-status';
import { AnalysisForm } from './analysis-form';
import type { ReportLocationState } from './analysis-route';

const Section = styled.section`
  margin-top: ${({ theme }) => theme.space.md};
  padding-top: ${({ theme }) => theme.space.md};
  border-top: 1px solid ${({ theme }) => theme.colors.border};

  h4 {
    margin: ${({ theme }) => `0 0 ${theme.space.sm}`};
  }

  dl {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: ${({ theme }) => `${theme.space.xs} ${theme.space.md}`};
    margin: ${({ theme }) => `0 0 ${theme.space.md}`};
  }

  dt {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }

  dd {
    margin: 0;
    white-space: pre-wrap;
  }
`;

export interface AnalysisSectionProps {
  reportId: string;
  evidence: Evidence;
  /** Only the report's owner may analyse (docs/requirements.md#analysis); everyone else reads the result. */
  isOwner: boolean;
  statuses: readonly LookupItem[] | undefined;
  editing: boolean;
  onEdit: () => void;
  onClose: () => void;
}

export function AnalysisSection({ reportId, evidence, isOwner, statuses, editing, onEdit, onClose }: AnalysisSectionProps) {
  const { t } = useTranslation('reports');
  const headingId = useId();
  const statusLabel = useAnalysisStatusLabel(statuses);
  const notAnalysed = evidence.analysisStatus === ANALYSIS_STATUS.notAnalysed;
  const canEdit = isOwner && editing;
  const section = useRef<HTMLElement>(null);
  const wasEditing = useRef(canEdit);
  const savedHere = (useLocation().state as ReportLocationState | null)?.savedEvidenceId === evidence.id;

  useEffect(() => {
    // Back from the analysis route after saving this image: focus returns to where the form was.
    if (savedHere) section.current?.querySelector('button')?.focus();
  }, [savedHere]);

  useEffect(() => {
    // Closing the form gives focus back to the button that opened it.
    if (wasEditing.current && !canEdit) section.current?.querySelector('button')?.focus();
    wasEditing.current = canEdit;
  }, [canEdit]);

  return (
    <Section ref={section} aria-labelledby={headingId}>
      <h4 id={headingId}>{t('analysis.heading')}</h4>
      {canEdit ? (
        <AnalysisForm reportId={reportId} evidence={evidence} statuses={statuses} onClose={onClose} />
      ) : (
        <>
          <dl>
            <dt>{t('analysis.status')}</dt>
            <dd>{statusLabel(evidence.analysisStatus)}</dd>
            {!notAnalysed && evidence.analysis && (
              <>
                <dt>{t('analysis.reason')}</dt>
                <dd>{evidence.analysis}</dd>
              </>
            )}
          </dl>
          {isOwner && (
            <Button variant={notAnalysed ? 'primary' : 'secondary'} onClick={onEdit}>
              {notAnalysed ? t('analysis.analyse') : t('analysis.edit')}
            </Button>
          )}
        </>
      )}
    </Section>
  );
}
