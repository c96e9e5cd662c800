import { useId } from 'react';
import { AXIS_COLOUR, axisTicks, CHART_WIDTH, ChartFrame, GRID_COLOUR, seriesColour, type LegendItem } from './chart-frame';

export interface BarSeries {
  label: string;
  /** One value per category; null draws no bar (and says so in the bar's title). */
  values: readonly (number | null)[];
}

export interface BarChartProps {
  title: string;
  /** The text alternative: what the chart shows and where the same numbers are in a table. */
  description: string;
  categories: readonly string[];
  series: readonly BarSeries[];
  format: (value: number) => string;
  /** Said for a missing value in a bar's title. */
  noValue: string;
  /** The axis runs to at least this (e.g. 100 for percent marks). */
  minMax?: number;
  /** A vertical line across the plot, e.g. the diagnostic reference level at 1. */
  reference?: { value: number; label: string };
}

const LABEL_WIDTH = 150;
const VALUE_WIDTH = 64;
const BAR_HEIGHT = 14;
const GROUP_GAP = 10;
const TOP = 8;
const AXIS_HEIGHT = 24;
const LABEL_CHARS = 22;

const shorten = (text: string) => (text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text);

/**
 * Horizontal grouped bars: one row of bars per category (a week, a projection, a learner), one bar
 * per series, the value written at its end. Rows grow downwards, so long names and many rows fit
 * a phone as well as a desktop.
 */
export function BarChart({ title, description, categories, series, format, noValue, minMax = 0, reference }: BarChartProps) {
  const titleId = useId();
  const descId = useId();
  const values = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const ticks = axisTicks(Math.max(minMax, reference?.value ?? 0, ...values));
  const max = ticks.at(-1) ?? 1;
  const plotLeft = LABEL_WIDTH;
  const plotWidth = CHART_WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const x = (value: number) => plotLeft + (Math.max(value, 0) / max) * plotWidth;
  const groupHeight = series.length * BAR_HEIGHT + GROUP_GAP;
  const plotBottom = TOP + categories.length * groupHeight;
  const height = plotBottom + AXIS_HEIGHT + (reference ? 16 : 0);
  const legend: LegendItem[] = series.map((s, i) => ({ label: s.label, colour: seriesColour(i) }));
  if (reference) legend.push({ label: reference.label, colour: AXIS_COLOUR, line: true });

  return (
    <ChartFrame legend={legend}>
      <svg viewBox={`0 0 ${CHART_WIDTH} ${height}`} role="img" aria-labelledby={titleId} aria-describedby={descId}>
        <title id={titleId}>{title}</title>
        <desc id={descId}>{description}</desc>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={x(tick)} x2={x(tick)} y1={TOP} y2={plotBottom} stroke={GRID_COLOUR} />
            <text x={x(tick)} y={plotBottom + 16} textAnchor="middle" fontSize="11" fill={AXIS_COLOUR}>
              {format(tick)}
            </text>
          </g>
        ))}
        {categories.map((category, c) => {
          const top = TOP + c * groupHeight + GROUP_GAP / 2;
          return (
            <g key={`${c}-${category}`} data-category={category}>
              <text x={plotLeft - 8} y={top + (series.length * BAR_HEIGHT) / 2 + 4} textAnchor="end" fontSize="12">
                {shorten(category)}
              </text>
              {series.map((s, i) => {
                const value = s.values[c] ?? null;
                const y = top + i * BAR_HEIGHT;
                const shown = value === null ? noValue : format(value);
                return (
                  <g key={s.label} data-series={s.label} data-value={shown}>
                    <title>{`${category}, ${s.label}: ${shown}`}</title>
                    {value !== null && (
                      <rect x={plotLeft} y={y + 1} width={Math.max(x(value) - plotLeft, 1)} height={BAR_HEIGHT - 2} fill={seriesColour(i)} />
                    )}
                    <text x={(value === null ? plotLeft : x(value)) + 4} y={y + BAR_HEIGHT - 3} fontSize="11">
                      {shown}
                    </text>
                  </g>
                );
              })}
            </g>
          );
        })}
        <line x1={plotLeft} x2={plotLeft} y1={TOP} y2={plotBottom} stroke={AXIS_COLOUR} />
        {reference && (
          <g data-reference={reference.value}>
            <line x1={x(reference.value)} x2={x(reference.value)} y1={TOP} y2={plotBottom} stroke={AXIS_COLOUR} strokeWidth="2" strokeDasharray="6 3" />
            <text x={x(reference.value)} y={plotBottom + 32} textAnchor="middle" fontSize="11">
              {reference.label}
            </text>
          </g>
        )}
      </svg>
    </ChartFrame>
  );
}
