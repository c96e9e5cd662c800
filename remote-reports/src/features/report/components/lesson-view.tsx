import { useId, type ReactNode } from 'react';
import { useTranslation } from '@portal/shared-ui';
import styled from 'styled-components';
import { FLUOROSCOPY_SECONDS } from '../../../config/constants';
import { formatNumber } from '../../../lib/format';
import { DOSE_LOCATIONS, type DoseLocation, type Lesson, type LessonPart } from '../lib/lesson';
import { DoseChart } from './dose-chart';

const Section = styled.section`
  margin: ${({ theme }) => `0 0 ${theme.space.xl}`};

  h2 {
    font-size: ${({ theme }) => theme.fontSizes.lg};
  }
`;

const Table = styled.table`
  border-collapse: collapse;
  background: ${({ theme }) => theme.colors.surface};

  caption {
    text-align: left;
    padding-bottom: ${({ theme }) => theme.space.xs};
    color: ${({ theme }) => theme.colors.textMuted};
  }

  th,
  td {
    padding: ${({ theme }) => `${theme.space.xs} ${theme.space.md}`};
    border: 1px solid ${({ theme }) => theme.colors.border};
    text-align: right;
  }

  th[scope='row'] {
    text-align: left;
  }
`;

export interface LessonViewProps {
  lesson: Lesson;
  /** Renders a part's evidence (image, readouts, analysis) under the lesson's doses. */
  renderPart: (part: LessonPart) => ReactNode;
}

/**
 * A radiation-safety lesson (docs/requirements.md#data, #limits-and-defaults): the operator's eye, chest and hip doses of both parts,
 * extrapolated to 900 s of fluoroscopy, and how much part 2 changed them.
 */
export function LessonView({ lesson, renderPart }: LessonViewProps) {
  const { t, i18n } = useTranslation('reports');
  const headingId = useId();
  const num = (value: number) => formatNumber(value, i18n.language);
  const unit = t('units.microSievert');
  const locationLabel = (location: DoseLocation) => t(`lesson.location.${location}`);
  const partLabel = (index: number) => t('lesson.part', { number: index + 1 });
  const dose = (part: LessonPart | null, location: DoseLocation) => (part ? num(part.doses[location]) : '–');
  const difference = (value: number | null) => (value === null ? '–' : t('lesson.percent', { value: num(value) }));

  const series = lesson.parts.map((part, index) => ({
    label: partLabel(index),
    values: DOSE_LOCATIONS.map((location) => (part ? part.doses[location] : null)),
  }));
  const description = series
    .map(
      (s) =>
        `${s.label}: ${DOSE_LOCATIONS.map((location, i) => {
          const value = s.values[i];
          return `${locationLabel(location)} ${value === null || value === undefined ? '–' : `${num(value)} ${unit}`}`;
        }).join(', ')}`,
    )
    .join('. ');

  return (
    <Section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('lesson.heading', { number: lesson.index + 1 })}</h2>
      <Table>
        <caption>{t('lesson.caption', { seconds: FLUOROSCOPY_SECONDS, unit })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('lesson.location.heading')}</th>
            {lesson.parts.map((_, index) => (
              <th key={index} scope="col">
                {partLabel(index)}
              </th>
            ))}
            <th scope="col">{t('lesson.difference')}</th>
          </tr>
        </thead>
        <tbody>
          {DOSE_LOCATIONS.map((location) => (
            <tr key={location}>
              <th scope="row">{locationLabel(location)}</th>
              {lesson.parts.map((part, index) => (
                <td key={index}>{dose(part, location)}</td>
              ))}
              <td>{difference(lesson.difference[location])}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <DoseChart
        title={t('lesson.chartTitle', { number: lesson.index + 1 })}
        description={description}
        categories={DOSE_LOCATIONS.map(locationLabel)}
        series={series}
        unit={unit}
        format={num}
      />
      {lesson.parts.map((part) => part && renderPart(part))}
    </Section>
  );
}
