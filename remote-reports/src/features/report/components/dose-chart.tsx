import { useId } from 'react';
import styled from 'styled-components';

export interface DoseChartSeries {
  label: string;
  /** One value per category; null draws no bar. */
  values: readonly (number | null)[];
}

export interface DoseChartProps {
  title: string;
  categories: readonly string[];
  series: readonly DoseChartSeries[];
  /** Unit after each value, e.g. "µSv". */
  unit: string;
  format: (value: number) => string;
  /** Sentence for screen readers listing every value; the visible table carries the same data. */
  description: string;
}

// Two series colours, both at least 3:1 against white (WCAG 1.4.11 for graphics).
const SERIES_COLOURS = ['#0b5c8a', '#b45309', '#1b6e35'] as const;

const WIDTH = 520;
const HEIGHT = 260;
const MARGIN = { top: 24, right: 16, bottom: 48, left: 16 };

const Figure = styled.figure`
  margin: ${({ theme }) => `${theme.space.md} 0`};
  max-width: ${WIDTH}px;

  svg {
    width: 100%;
    height: auto;
    font-family: inherit;
  }

  figcaption {
    display: flex;
    flex-wrap: wrap;
    gap: ${({ theme }) => theme.space.md};
    font-size: ${({ theme }) => theme.fontSizes.sm};
  }
`;

const Swatch = styled.span<{ $colour: string }>`
  display: inline-block;
  width: 12px;
  height: 12px;
  margin-right: ${({ theme }) => theme.space.xs};
  background: ${({ $colour }) => $colour};
  vertical-align: middle;
`;

/**
 * A grouped bar chart as plain SVG: one group per category, one bar per series, each bar labelled
 * with its value. Screen readers get the title and a description with every value.
 */
export function DoseChart({ title, categories, series, unit, format, description }: DoseChartProps) {
  const titleId = useId();
  const descId = useId();
  const values = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const max = Math.max(0, ...values) || 1;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const groupWidth = plotWidth / Math.max(categories.length, 1);
  const barWidth = (groupWidth * 0.7) / Math.max(series.length, 1);
  const baseline = MARGIN.top + plotHeight;

  return (
    <Figure>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} aria-describedby={descId}>
        <title id={titleId}>{title}</title>
        <desc id={descId}>{description}</desc>
        {categories.map((category, c) => {
          const groupX = MARGIN.left + c * groupWidth + groupWidth * 0.15;
          return (
            <g key={category} data-category={category}>
              {series.map((s, i) => {
                const value = s.values[c];
                if (value === null || value === undefined) return null;
                const height = (value / max) * plotHeight;
                const x = groupX + i * barWidth;
                return (
                  <g key={s.label} data-series={s.label}>
                    <rect
                      x={x + 2}
                      y={baseline - height}
                      width={Math.max(barWidth - 4, 1)}
                      height={height}
                      fill={SERIES_COLOURS[i % SERIES_COLOURS.length]}
                    />
                    <text x={x + barWidth / 2} y={baseline - height - 6} textAnchor="middle" fontSize="12">
                      {format(value)}
                    </text>
                  </g>
                );
              })}
              <text x={MARGIN.left + c * groupWidth + groupWidth / 2} y={baseline + 20} textAnchor="middle" fontSize="13">
                {category}
              </text>
            </g>
          );
        })}
        <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={baseline} y2={baseline} stroke="#52606d" />
        <text x={WIDTH - MARGIN.right} y={HEIGHT - 8} textAnchor="end" fontSize="12">
          {unit}
        </text>
      </svg>
      <figcaption aria-hidden="true">
        {series.map((s, i) => (
          <span key={s.label}>
            <Swatch $colour={SERIES_COLOURS[i % SERIES_COLOURS.length] ?? SERIES_COLOURS[0]} />
            {s.label}
          </span>
        ))}
      </figcaption>
    </Figure>
  );
}
