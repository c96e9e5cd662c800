import { useId, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import type { LtiCourseGradeRelease, LtiCourseGradeReleaseChoice } from '@portal/contract';
import { Button, useTranslation } from '@portal/shared-ui';
import { useSaveCourseGradeRelease } from '../api/course-grade-release';
import { InstructorPanel, PanelErrorText } from './instructor-panel';

const Choices = styled.fieldset`
  border: 0;
  padding: 0;
  margin: ${({ theme }) => `0 0 ${theme.space.sm}`};

  label {
    display: flex;
    gap: ${({ theme }) => theme.space.xs};
    align-items: baseline;
    margin: ${({ theme }) => `0 0 ${theme.space.xs}`};
  }
`;

/** The radio values: '' stands for null (the organisation's default). */
const CHOICES = ['', 'automatic', 'after_review'] as const;
type Choice = (typeof CHOICES)[number];
const toChoice = (value: LtiCourseGradeReleaseChoice): Choice => value ?? '';

export interface LtiGradeReleasePanelProps {
  launchId: string;
  setting: LtiCourseGradeRelease;
}

/**
 * "Grades for this course": the organisation's default, automatic, or after review (issue #23
 * point 2), chosen by the course's instructor on the launch page and saved with a button, so
 * that moving through the radios by keyboard changes nothing until they mean it.
 */
export function LtiGradeReleasePanel({ launchId, setting }: LtiGradeReleasePanelProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const save = useSaveCourseGradeRelease(launchId);
  const [saved, setSaved] = useState(setting);
  const [choice, setChoice] = useState<Choice>(toChoice(setting.gradeRelease));
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setStatus('saving');
    setError(null);
    const result = await save(choice === '' ? null : choice);
    if (result.isSuccess) {
      setSaved(result.data);
      setStatus('saved');
    } else {
      setStatus('failed');
      setError(result.error?.launchId?.[0] ?? result.error?.gradeRelease?.[0] ?? t('lti.gradeRelease.failed'));
    }
  }

  const policyName = (policy: 'automatic' | 'after_review') => t(`lti.gradeRelease.policy.${policy}`);
  const label = (value: Choice) =>
    value === ''
      ? t('lti.gradeRelease.default', { policy: policyName(saved.organisationDefault) })
      : policyName(value);

  return (
    <InstructorPanel aria-labelledby={headingId}>
      <h2 id={headingId}>{t('lti.gradeRelease.heading')}</h2>
      <form onSubmit={(e) => void onSubmit(e)}>
        <Choices>
          <legend>
            {t('lti.gradeRelease.legend', { course: saved.courseTitle ?? t('lti.roster.thisCourse') })}
          </legend>
          {CHOICES.map((value) => (
            <label key={value || 'default'}>
              <input
                type="radio"
                name={`${headingId}-grade-release`}
                value={value}
                checked={choice === value}
                onChange={() => setChoice(value)}
              />
              {label(value)}
            </label>
          ))}
        </Choices>
        <p>{t('lti.gradeRelease.help')}</p>
        <Button type="submit" disabled={status === 'saving'}>
          {status === 'saving' ? t('lti.gradeRelease.saving') : t('lti.gradeRelease.save')}
        </Button>
      </form>
      <div role="status" aria-live="polite">
        {status === 'saved' && <p>{t('lti.gradeRelease.saved', { choice: label(toChoice(saved.gradeRelease)) })}</p>}
        {error && <PanelErrorText>{error}</PanelErrorText>}
      </div>
    </InstructorPanel>
  );
}
