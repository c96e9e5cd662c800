import { Fragment, useId, useState } from 'react';
import styled from 'styled-components';
import type { CriterionMark, FieldErrors, ImageMarks, MarkOverride } from '@portal/contract';
import { Button, VisuallyHidden, useTranslation } from '@portal/shared-ui';
import { FiguresTable as Table } from '../../../components/figures-table';
import { formatNumber } from '../../../lib/format';
import { OverrideMarkForm } from './override-mark-form';

export interface ImageMarksTableProps {
  marks: ImageMarks;
  /** Criteria an educator re-marked; their mark is already in `marks`. */
  overrides?: readonly MarkOverride[];
  /** An educator's "Override mark" per criterion; absent for everyone else. */
  onOverride?: (criterion: CriterionMark['criterion'], mark: number, reason: string) => Promise<FieldErrors | undefined>;
}

/**
 * The API's marks of one image (issue #23): each criterion's mark and, for every point lost, why,
 * with the measured value and the limit it broke. A mark an educator overrode shows the
 * original struck through, and the educator's reason.
 */
export function ImageMarksTable({ marks, overrides = [], onOverride }: ImageMarksTableProps) {
  const { t, i18n } = useTranslation('reports');
  const captionId = useId();
  const [editing, setEditing] = useState<CriterionMark['criterion'] | null>(null);
  const num = (value: number) => formatNumber(value, i18n.language);
  const markText = (mark: number | null, max: number) =>
    mark === null ? t('marks.notAssessed') : t('marks.markValue', { mark: num(mark), max: num(max) });
  const reason = (c: CriterionMark) =>
    t(`marks.reasons.${c.reason}`, {
      value: c.value === null ? '' : num(c.value),
      limit: c.limit === null ? '' : num(c.limit),
    });
  const columns = onOverride ? 4 : 3;
  return (
    <Table aria-labelledby={captionId}>
      <caption id={captionId}>
        {marks.score === null
          ? t('marks.captionNotAssessed')
          : t('marks.caption', { score: num(marks.score) })}
      </caption>
      <thead>
        <tr>
          <th scope="col">{t('marks.criterion')}</th>
          <th scope="col">{t('marks.mark')}</th>
          <th scope="col">{t('marks.reason')}</th>
          {onOverride && <th scope="col">{t('feedback.overrideColumn')}</th>}
        </tr>
      </thead>
      <tbody>
        {marks.criteria.map((c) => {
          const override = overrides.find((o) => o.criterion === c.criterion);
          const name = t(`marks.criteria.${c.criterion}`);
          return (
            <Fragment key={c.criterion}>
              <tr>
                <th scope="row">{name}</th>
                <td>
                  {override ? (
                    <>
                      <del>
                        <VisuallyHidden>{t('feedback.originalMark')} </VisuallyHidden>
                        {markText(override.originalMark, c.max)}
                      </del>{' '}
                      <ins>
                        <VisuallyHidden>{t('feedback.overriddenMark')} </VisuallyHidden>
                        {markText(c.mark, c.max)}
                      </ins>
                    </>
                  ) : (
                    markText(c.mark, c.max)
                  )}
                </td>
                <td>
                  {reason(c)}
                  {override && (
                    <Overridden>
                      {t('feedback.overriddenBy', { author: override.authorName, reason: override.reason })}
                    </Overridden>
                  )}
                </td>
                {onOverride && (
                  <td>
                    <Button
                      variant="secondary"
                      aria-expanded={editing === c.criterion}
                      aria-label={t('feedback.overrideFor', { criterion: name })}
                      onClick={() => setEditing(editing === c.criterion ? null : c.criterion)}
                    >
                      {t('feedback.override')}
                    </Button>
                  </td>
                )}
              </tr>
              {onOverride && editing === c.criterion && (
                <tr>
                  <td colSpan={columns}>
                    <OverrideMarkForm
                      criterion={c}
                      name={name}
                      onSave={(mark, text) => onOverride(c.criterion, mark, text)}
                      onClose={() => setEditing(null)}
                    />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </Table>
  );
}

const Overridden = styled.p`
  margin: ${({ theme }) => `${theme.space.xxs} 0 0`};
  font-style: italic;
`;

/**
 * The image is stored and the API marks it shortly after the upload (issue #24 point 5): said
 * instead of its marks until then. A status, so assistive technology announces the marks' arrival
 * when the report refreshes.
 */
export function MarkingPending() {
  const { t } = useTranslation('reports');
  return <Pending role="status">{t('marks.pending')}</Pending>;
}

const Pending = styled.p`
  margin: ${({ theme }) => `${theme.space.xs} 0`};
  font-style: italic;
`;
