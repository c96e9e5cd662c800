import { useId, type MouseEvent } from 'react';
import { useNavigate } from '@portal/shared-ui';
import { AXIS_COLOUR, axisTicks, ChartFrame, GRID_COLOUR, seriesColour } from './chart-frame';

export interface LinePoint {
  value: number;
  /** Read by screen readers and shown as the point's tooltip, e.g. "12/03/2026: 72 %". */
  label: string;
  /** A route inside the portal the point opens. */
  href: string;
}

export interface LineChartProps {
  title: string;
  description: string;
  points: readonly LinePoint[];
  format: (value: number) => string;
  /** The axis runs to at least this (100 for percent marks). */
  minMax?: number;
}

const WIDTH = 320;
const HEIGHT = 160;
const LEFT = 40;
const RIGHT = 12;
const TOP = 10;
const BOTTOM = 20;
const RADIUS = 6;

/**
 * A small trend line, oldest point left. Each point is a link (keyboard reachable, named by its
 * label) to where its value comes from; the SVG is a labelled group rather than an image so
 * those links stay in the accessibility tree.
 */
export function LineChart({ title, description, points, format, minMax = 0 }: LineChartProps) {
  const titleId = useId();
  const descId = useId();
  const navigate = useNavigate();
  const ticks = axisTicks(Math.max(minMax, ...points.map((p) => p.value)));
  const max = ticks.at(-1) ?? 1;
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const x = (index: number) => LEFT + (points.length > 1 ? (index / (points.length - 1)) * plotWidth : plotWidth / 2);
  const y = (value: number) => TOP + plotHeight - (Math.max(value, 0) / max) * plotHeight;
  const follow = (href: string) => (event: MouseEvent) => {
    event.preventDefault();
    navigate(href);
  };

  return (
    <ChartFrame legend={[]}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="group" aria-labelledby={titleId} aria-describedby={descId}>
        <title id={titleId}>{title}</title>
        <desc id={descId}>{description}</desc>
        {ticks.map((tick) => (
          <g key={tick} aria-hidden="true">
            <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(tick)} y2={y(tick)} stroke={GRID_COLOUR} />
            <text x={LEFT - 6} y={y(tick) + 4} textAnchor="end" fontSize="10" fill={AXIS_COLOUR}>
              {format(tick)}
            </text>
          </g>
        ))}
        <polyline
          aria-hidden="true"
          points={points.map((p, i) => `${x(i)},${y(p.value)}`).join(' ')}
          fill="none"
          stroke={seriesColour(0)}
          strokeWidth="2"
        />
        {points.map((p, i) => (
          <a key={`${i}-${p.href}`} href={p.href} onClick={follow(p.href)} aria-label={p.label} data-value={format(p.value)}>
            <title>{p.label}</title>
            <circle cx={x(i)} cy={y(p.value)} r={RADIUS} fill={seriesColour(0)} stroke="#ffffff" strokeWidth="2" />
          </a>
        ))}
      </svg>
    </ChartFrame>
  );
}
