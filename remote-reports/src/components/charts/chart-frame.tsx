import type { ReactNode } from 'react';
import styled from 'styled-components';

/**
 * The charts of the insight and progress screens are plain SVG drawn here (issue #23 point 4):
 * a few hundred lines instead of a chart library (the smallest accessible ones add 30–60 kB gzip),
 * and every figure is also in a table beside it, so the chart only has to be readable, not
 * interactive. Colours are at least 3:1 against white (WCAG 1.4.11 for graphics).
 */
export const SERIES_COLOURS = ['#0b5c8a', '#b45309', '#1b6e35', '#6d28d9'] as const;
export const seriesColour = (index: number): string => SERIES_COLOURS[index % SERIES_COLOURS.length] ?? SERIES_COLOURS[0];
export const AXIS_COLOUR = '#52606d';
export const GRID_COLOUR = '#d9e2ec';

export const CHART_WIDTH = 560;

const Figure = styled.figure`
  margin: 0;
  min-width: 0;

  svg {
    display: block;
    width: 100%;
    max-width: ${CHART_WIDTH}px;
    height: auto;
    font-family: inherit;
    overflow: visible;
  }

  svg a:focus {
    outline: none;
  }

  svg a:focus-visible circle {
    stroke: ${({ theme }) => theme.colors.text};
    stroke-width: 3px;
  }
`;

const Legend = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.md};
  margin: ${({ theme }) => `${theme.space.xs} 0 0`};
  padding: 0;
  list-style: none;
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const Swatch = styled.span<{ $colour: string; $line?: boolean }>`
  display: inline-block;
  width: 14px;
  height: ${({ $line }) => ($line ? '3px' : '12px')};
  margin-right: ${({ theme }) => theme.space.xs};
  background: ${({ $colour }) => $colour};
  vertical-align: middle;
`;

export interface LegendItem {
  label: string;
  colour: string;
  line?: boolean;
}

/** A chart with its legend; the legend repeats what the description says, so it is hidden from screen readers. */
export function ChartFrame({ legend, children }: { legend: readonly LegendItem[]; children: ReactNode }) {
  return (
    <Figure>
      {children}
      {legend.length > 1 || legend.some((item) => item.line) ? (
        <Legend aria-hidden="true">
          {legend.map((item) => (
            <li key={item.label}>
              <Swatch $colour={item.colour} $line={item.line} />
              {item.label}
            </li>
          ))}
        </Legend>
      ) : null}
    </Figure>
  );
}

/** Round axis ticks from 0 to at least `max`: 0, step, 2·step… with a 1-2-5 step. */
export function axisTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let tick = 0; tick < max + step / 2; tick += step) ticks.push(Number(tick.toPrecision(12)));
  if ((ticks.at(-1) ?? 0) < max) ticks.push(Number(((ticks.at(-1) ?? 0) + step).toPrecision(12)));
  return ticks;
}
