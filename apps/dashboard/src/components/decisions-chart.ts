import type { AreaChartProps } from '@mantine/charts';

/**
 * How every chart of decisions over time is drawn (the overview's and the platform view's):
 * straight segments without dots, light fills, and no animation, so a live chart redrawn every
 * second neither wobbles nor costs a frame loop.
 */
export const DECISIONS_CHART_PROPS = {
  curveType: 'linear',
  withDots: false,
  withLegend: true,
  fillOpacity: 0.25,
  strokeWidth: 1.5,
  xAxisProps: { minTickGap: 48 },
  areaProps: { isAnimationActive: false },
} as const satisfies Partial<AreaChartProps>;
