import { useTranslation } from '@portal/shared-ui';
import styled from 'styled-components';
import type { AnalysisStatusSummary } from '@portal/contract';

const Icon = styled.span<{ $tone: 'done' | 'partial' | 'none' }>`
  display: inline-flex;
  align-items: center;
  color: ${({ theme, $tone }) =>
    $tone === 'done' ? theme.colors.success : $tone === 'partial' ? theme.colors.primary : theme.colors.textMuted};
`;

const TICK = 'M3 8.5l3.2 3.2L13 5';
const DASH = 'M3.5 8h9';

/**
 * docs/requirements.md#behaviour: completed shows a tick, partial a half-filled circle, not started (or anything the
 * API may add later) a dash. The icon carries its meaning as an accessible name.
 */
export function AnalysisStatusIcon({ summary }: { summary: AnalysisStatusSummary | string }) {
  const { t } = useTranslation('reports');
  const label =
    summary === 'completed'
      ? t('analysisSummary.completed')
      : summary === 'partial'
        ? t('analysisSummary.partial')
        : summary === 'not_started'
          ? t('analysisSummary.notStarted')
          : t('analysisSummary.unknown');
  const tone = summary === 'completed' ? 'done' : summary === 'partial' ? 'partial' : 'none';
  return (
    <Icon role="img" aria-label={label} title={label} $tone={tone}>
      <svg width="18" height="18" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        {summary === 'partial' ? (
          <>
            <circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" strokeWidth="1.6" />
            <path d="M8 2a6 6 0 0 1 0 12z" fill="currentColor" />
          </>
        ) : (
          <path
            d={summary === 'completed' ? TICK : DASH}
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        )}
      </svg>
    </Icon>
  );
}
