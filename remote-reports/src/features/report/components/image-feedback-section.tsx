import { useId } from 'react';
import styled from 'styled-components';
import type { Evidence } from '@portal/contract';
import { useTranslation } from '@portal/shared-ui';
import { CommentForm, FeedbackQuote } from './feedback-comment';

const Section = styled.section`
  margin-top: ${({ theme }) => theme.space.md};
  padding-top: ${({ theme }) => theme.space.md};
  border-top: 1px solid ${({ theme }) => theme.colors.border};

  h4 {
    margin: ${({ theme }) => `0 0 ${theme.space.sm}`};
  }
`;

export interface ImageFeedbackSectionProps {
  evidence: Evidence;
  /** The educator's save; absent for readers (the learner reads the feedback only). */
  onSave?: (comment: string) => ReturnType<Parameters<typeof CommentForm>[0]['onSave']>;
}

/**
 * An educator's comment on one image (issue #23 point 3), beside the learner's own analysis:
 * editable for the learner's educators, read-only for everyone else, absent when there is none.
 */
export function ImageFeedbackSection({ evidence, onSave }: ImageFeedbackSectionProps) {
  const { t } = useTranslation('reports');
  const headingId = useId();
  const { feedback } = evidence;
  if (!onSave && !feedback) return null;
  return (
    <Section aria-labelledby={headingId}>
      <h4 id={headingId}>{t('feedback.imageHeading')}</h4>
      {onSave ? (
        <CommentForm label={t('feedback.imageComment')} initial={feedback?.comment ?? ''} onSave={onSave} />
      ) : (
        feedback && <FeedbackQuote feedback={feedback} label={t('feedback.imageHeading')} />
      )}
    </Section>
  );
}
