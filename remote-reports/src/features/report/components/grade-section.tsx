import { useId, useState } from 'react';
import styled from 'styled-components';
import type { Report } from '@portal/contract';
import { Button, useTranslation } from '@portal/shared-ui';
import { formatNumber, formatReportTime } from '../../../lib/format';
import { useReleaseGrade } from '../api/release-grade';

const Section = styled.section`
  margin: ${({ theme }) => `0 0 ${theme.space.xl}`};
  padding: ${({ theme }) => theme.space.lg};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};

  h2 {
    margin-top: 0;
    font-size: ${({ theme }) => theme.fontSizes.lg};
  }

  dl {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: ${({ theme }) => `${theme.space.xs} ${theme.space.lg}`};
    margin: ${({ theme }) => `0 0 ${theme.space.md}`};
  }

  dt {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }

  dd {
    margin: 0;
  }
`;

type ReleaseState = 'idle' | 'busy' | 'released' | 'failed';

/**
 * The report's grade (issue #23): the score the portal computed from the images' marks against
 * the pass mark (what the simulator claimed stays in the report details, never sent), whether the
 * learning platform has it, and, for the learner's educators while it waits for review, "Release grade".
 */
export function GradeSection({ report }: { report: Report }) {
  const { t, i18n } = useTranslation('reports');
  const headingId = useId();
  const release = useReleaseGrade(report.uuid);
  const [state, setState] = useState<ReleaseState>('idle');
  const { grade } = report;
  const percent = (value: number) => t('report.scoreValue', { score: formatNumber(value, i18n.language) });

  const onRelease = async () => {
    setState('busy');
    try {
      setState((await release()) ? 'released' : 'failed');
    } catch {
      setState('failed');
    }
  };

  return (
    <Section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('grade.heading')}</h2>
      <dl>
        <dt>{t('grade.score')}</dt>
        <dd>
          {grade.score === null
            ? t('grade.notMarked')
            : grade.passMark === null
              ? percent(grade.score)
              : t(grade.score >= grade.passMark ? 'grade.passed' : 'grade.belowPassMark', {
                  score: percent(grade.score),
                  passMark: percent(grade.passMark),
                })}
        </dd>
        {grade.release !== 'not_applicable' && (
          <>
            <dt>{t('grade.platform')}</dt>
            <dd>
              {grade.release === 'released' && grade.releasedAt
                ? t('grade.released', { time: formatReportTime(grade.releasedAt, i18n.language) })
                : t('grade.pending')}
            </dd>
          </>
        )}
      </dl>
      {grade.canRelease && (
        <Button type="button" onClick={() => void onRelease()} disabled={state === 'busy'}>
          {t('grade.release')}
        </Button>
      )}
      {/* Present from the moment the button is, so the outcome is announced. */}
      {(grade.canRelease || state !== 'idle') && (
        <div role="status">{state === 'released' ? t('grade.releaseDone') : ''}</div>
      )}
      {state === 'failed' && <p role="alert">{t('grade.releaseFailed')}</p>}
    </Section>
  );
}
