import { memo } from 'react';
import { formatMoney } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

const WIDTH = 88;
const HEIGHT = 24;
const MARGIN = 2;

/** The points of a line through `values`, oldest first, scaled into the sparkline's box (a flat line when equal). */
export function sparklinePoints(values: readonly number[]): string {
  if (values.length === 0) return '';
  const min = Math.min(...values);
  const span = Math.max(...values) - min;
  const step = values.length > 1 ? (WIDTH - 2 * MARGIN) / (values.length - 1) : 0;
  return values
    .map((value, i) => {
      const x = MARGIN + i * step;
      const y = span === 0 ? HEIGHT / 2 : HEIGHT - MARGIN - ((value - min) / span) * (HEIGHT - 2 * MARGIN);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

/**
 * A machine's revenue of the last days as a small line, oldest first; its figures are its accessible name. Plain
 * SVG rather than a chart: the table draws one per visible row and again at every refresh, and a chart library's
 * machinery (a store and scales per chart) made each refresh of the fleet a long task (docs/web-app.md, "Fleet
 * dashboard").
 */
export const Sparkline = memo(function Sparkline({ values }: { values: number[] }) {
  const { t } = useTranslation();
  const label = t('fleet.trendLabel', { values: values.map((v) => formatMoney(v)).join(', ') });
  return (
    <span className="fleet-sparkline" role="img" aria-label={label} title={label}>
      <svg width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true" focusable="false">
        <polyline
          points={sparklinePoints(values)}
          fill="none"
          stroke="currentColor"
          strokeWidth={1.5}
          strokeLinejoin="round"
          strokeLinecap="round"
        />
      </svg>
    </span>
  );
});
