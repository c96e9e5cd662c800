import { Fragment, useId, type ReactNode } from 'react';
import { useTranslation } from '@portal/shared-ui';
import styled from 'styled-components';
import type { Evidence, LookupItem } from '@portal/contract';
import { formatNumber } from '../../../lib/format';
import { READOUTS, wordsOf } from '../readouts';
import { AnalysisSection } from './analysis-section';
import { ImageMarksTable, MarkingPending } from './image-marks';
import { ImageFeedbackSection } from './image-feedback-section';
import { useSaveFeedback } from '../api/save-feedback';

const Article = styled.article`
  margin: ${({ theme }) => `0 0 ${theme.space.lg}`};
  padding: ${({ theme }) => theme.space.lg};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};

  h3 {
    margin: ${({ theme }) => `0 0 ${theme.space.md}`};
    font-size: ${({ theme }) => theme.fontSizes.lg};
  }
`;

const Body = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};

  ${({ theme }) => theme.media.lg} {
    grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
  }
`;

const Picture = styled.div`
  img {
    display: block;
    max-width: 100%;
    height: auto;
    border-radius: ${({ theme }) => theme.radii.sm};
    background: #000;
  }

  p {
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const Readouts = styled.div`
  h4 {
    margin: ${({ theme }) => `${theme.space.md} 0 ${theme.space.xs}`};
    font-size: ${({ theme }) => theme.fontSizes.md};
  }

  h4:first-child {
    margin-top: 0;
  }

  dl {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: ${({ theme }) => `${theme.space.xxs} ${theme.space.md}`};
    margin: 0;
  }

  dt {
    color: ${({ theme }) => theme.colors.textMuted};
  }

  dd {
    margin: 0;
  }
`;

function ReadoutList({ title, entries }: { title: string; entries: readonly [string, ReactNode][] }) {
  const id = useId();
  if (entries.length === 0) return null;
  return (
    <>
      <h4 id={id}>{title}</h4>
      <dl aria-labelledby={id}>
        {entries.map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
      </dl>
    </>
  );
}

/**
 * A readout as people read it: the translated label, the value in the interface language with its
 * unit, yes/no for booleans and translated names for the values our simulators send.
 */
function useReadoutEntries() {
  const { t, i18n } = useTranslation('reports');
  return (readouts: Record<string, string | number | boolean>): [string, ReactNode][] =>
    Object.entries(readouts).map(([key, value]) => {
      const spec = Object.hasOwn(READOUTS, key) ? READOUTS[key] : undefined;
      const label = spec ? t(spec.label) : wordsOf(key);
      if (typeof value === 'boolean') return [label, t(value ? 'evidence.yes' : 'evidence.no')];
      if (typeof value === 'number') {
        const number = formatNumber(value, i18n.language);
        return [label, spec?.unit ? `${number} ${t(spec.unit)}` : number];
      }
      return [label, spec?.values ? t(`${spec.values}.${value}`, { defaultValue: value }) : value];
    });
}

export interface EvidenceArticleProps {
  reportId: string;
  /** Position in the report, from 1: "Image n". */
  number: number;
  evidence: Evidence;
  /** Signed URL of the image; undefined while it is being fetched, null when it failed. */
  imageUrl: string | null | undefined;
  isOwner: boolean;
  /** An educator of the learner's organisation: comments and overrides marks (issue #23). */
  canGiveFeedback: boolean;
  statuses: readonly LookupItem[] | undefined;
  editing: boolean;
  onEdit: () => void;
  onClose: () => void;
}

/** One captured image with its settings, doses and analysis (docs/requirements.md#data). */
export function EvidenceArticle({ number, evidence, imageUrl, canGiveFeedback, ...analysis }: EvidenceArticleProps) {
  const { t, i18n } = useTranslation('reports');
  const { saveImage, saveReport } = useSaveFeedback(analysis.reportId);
  const errorsOf = (result: Awaited<ReturnType<typeof saveImage>>) =>
    result.isSuccess ? undefined : (result.error ?? {});
  const headingId = useId();
  const readoutEntries = useReadoutEntries();
  const num = (value: number) => formatNumber(value, i18n.language);
  const { tube, dose, settings, console: consoleReadouts } = evidence.evidenceData;
  const title = t('evidence.heading', { number, activity: evidence.practiceActivity });

  const tubeEntries: [string, ReactNode][] = [
    [t('evidence.kv'), `${num(tube.kV)} ${t('units.kv')}`],
    [t('evidence.mas'), `${num(tube.mAs)} ${t('units.mas')}`],
    [t('evidence.sid'), `${num(tube.sidCm)} ${t('units.cm')}`],
  ];
  const doseEntries: [string, ReactNode][] = [
    [t('evidence.dap'), `${num(dose.dapMGyCm2)} ${t('units.dap')}`],
  ];
  if (dose.entranceDoseUGy !== undefined)
    doseEntries.push([t('evidence.entranceDose'), `${num(dose.entranceDoseUGy)} ${t('units.microGray')}`]);

  return (
    <Article aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      <Body>
        {evidence.hasImage && (
          <Picture>
            {imageUrl ? (
              <img src={imageUrl} alt={t('evidence.imageAlt', { number, activity: evidence.practiceActivity })} />
            ) : imageUrl === null ? (
              <p role="alert">{t('evidence.imageFailed')}</p>
            ) : (
              <p>{t('evidence.imageLoading')}</p>
            )}
          </Picture>
        )}
        <Readouts>
          <ReadoutList title={t('evidence.tubeSettings')} entries={tubeEntries} />
          <ReadoutList title={t('evidence.dose')} entries={doseEntries} />
          <ReadoutList
            title={t('evidence.settings')}
            entries={readoutEntries(settings)}
          />
          <ReadoutList
            title={t('evidence.console')}
            entries={readoutEntries(consoleReadouts)}
          />
        </Readouts>
      </Body>
      {evidence.markingPending && <MarkingPending />}
      {evidence.marks && (
        <ImageMarksTable
          marks={evidence.marks}
          overrides={evidence.overrides}
          onOverride={
            canGiveFeedback
              ? async (criterion, mark, reason) =>
                  errorsOf(await saveReport({ overrides: [{ evidenceId: evidence.id, criterion, mark, reason }] }))
              : undefined
          }
        />
      )}
      <ImageFeedbackSection
        evidence={evidence}
        onSave={canGiveFeedback ? async (comment) => errorsOf(await saveImage(evidence.id, { comment })) : undefined}
      />
      <AnalysisSection evidence={evidence} {...analysis} />
    </Article>
  );
}
