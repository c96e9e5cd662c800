import { useId } from 'react';
import styled from 'styled-components';
import type { Report } from '@portal/contract';
import { useTranslation } from '@portal/shared-ui';
import { useSaveFeedback } from '../api/save-feedback';
import { CommentForm, FeedbackQuote } from './feedback-comment';

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
`;

/**
 * The educator's comment on the whole report (issue #23 point 3): a form for the learner's
 * educators, the comment for everyone else; nothing when there is none to read.
 */
export function ReportFeedbackSection({ report }: { report: Report }) {
  const { t } = useTranslation('reports');
  const headingId = useId();
  const { saveReport } = useSaveFeedback(report.uuid);
  if (!report.canGiveFeedback && !report.feedback) return null;
  return (
    <Section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('feedback.reportHeading')}</h2>
      {report.canGiveFeedback ? (
        <CommentForm
          label={t('feedback.reportComment')}
          initial={report.feedback?.comment ?? ''}
          onSave={async (comment) => {
            const result = await saveReport({ comment });
            return result.isSuccess ? undefined : (result.error ?? {});
          }}
        />
      ) : (
        report.feedback && <FeedbackQuote feedback={report.feedback} label={t('feedback.reportHeading')} />
      )}
    </Section>
  );
}
