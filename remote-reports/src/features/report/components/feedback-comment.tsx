import { useId, useState } from 'react';
import styled from 'styled-components';
import { FEEDBACK_COMMENT_MAX_LENGTH, type FeedbackComment, type FieldErrors } from '@portal/contract';
import { Button, ErrorBanner, useTranslation } from '@portal/shared-ui';
import { FORM_ERROR, Form, fieldErrors, useField } from '@portal/shared-ui/forms';
import { formatReportTime } from '../../../lib/format';
import { TextAreaField } from './text-area-field';

const Quote = styled.figure`
  margin: ${({ theme }) => `${theme.space.md} 0 0`};
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  border-inline-start: 4px solid ${({ theme }) => theme.colors.primary};
  background: ${({ theme }) => theme.colors.background};

  blockquote {
    margin: 0;
    white-space: pre-wrap;
  }

  figcaption {
    margin-top: ${({ theme }) => theme.space.xs};
    font-size: ${({ theme }) => theme.fontSizes.sm};
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

/** An educator's comment as the learner (and everyone who may see the report) reads it. */
export function FeedbackQuote({ feedback, label }: { feedback: FeedbackComment; label: string }) {
  const { t, i18n } = useTranslation('reports');
  return (
    <Quote aria-label={label}>
      <blockquote>{feedback.comment}</blockquote>
      <figcaption>
        {t('feedback.byline', {
          author: feedback.authorName,
          time: formatReportTime(feedback.updatedAt, i18n.language),
        })}
      </figcaption>
    </Quote>
  );
}

const Actions = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
`;

interface CommentValues {
  comment: string;
}

export interface CommentFormProps {
  label: string;
  initial: string;
  /** Saves the comment; resolves with field errors of a refused save, undefined when saved. */
  onSave: (comment: string) => Promise<FieldErrors | undefined>;
}

function CommentField({ label }: { label: string }) {
  const { t } = useTranslation('reports');
  const { input, meta } = useField<string>('comment', {
    validate: (value) =>
      (value ?? '').length > FEEDBACK_COMMENT_MAX_LENGTH
        ? t('feedback.tooLong', { max: FEEDBACK_COMMENT_MAX_LENGTH })
        : undefined,
  });
  return (
    <TextAreaField
      {...input}
      value={input.value ?? ''}
      label={label}
      help={t('feedback.counter', { count: (input.value ?? '').length, max: FEEDBACK_COMMENT_MAX_LENGTH })}
      errors={fieldErrors(meta)}
    />
  );
}

/**
 * An educator's comment (on an image or the whole report): saved as typed, an empty one clears
 * it. The server's refusal shows under the field; anything else above the form.
 */
export function CommentForm({ label, initial, onSave }: CommentFormProps) {
  const { t } = useTranslation('reports');
  const statusId = useId();
  const [saved, setSaved] = useState(false);
  const onSubmit = async ({ comment = '' }: CommentValues) => {
    setSaved(false);
    try {
      const errors = await onSave(comment);
      if (errors) {
        const { comment: field, ...rest } = errors;
        return { ...(field ? { comment: field } : {}), ...(Object.keys(rest).length ? { [FORM_ERROR]: Object.values(rest).flat() } : {}) };
      }
      setSaved(true);
      return undefined;
    } catch {
      return { [FORM_ERROR]: [t('feedback.saveFailed')] };
    }
  };
  return (
    <Form<CommentValues>
      onSubmit={onSubmit}
      initialValues={{ comment: initial }}
      render={({ handleSubmit, submitting, submitError }) => (
        <form onSubmit={handleSubmit} noValidate aria-label={label}>
          {submitError && <ErrorBanner errors={[submitError].flat().map(String)} />}
          <CommentField label={label} />
          <Actions>
            <Button type="submit" disabled={submitting}>
              {t('feedback.save')}
            </Button>
            <span id={statusId} role="status">
              {saved ? t('feedback.saved') : ''}
            </span>
          </Actions>
        </form>
      )}
    />
  );
}
