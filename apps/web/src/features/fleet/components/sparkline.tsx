import { Line, LineChart } from 'recharts';
import { formatMoney } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

/** A machine's revenue of the last days as a small line, oldest first; its figures are its accessible name. */
export function Sparkline({ values }: { values: number[] }) {
  const { t } = useTranslation();
  const data = values.map((value, day) => ({ day, value }));
  const label = t('fleet.trendLabel', { values: values.map((v) => formatMoney(v)).join(', ') });
  return (
    <span className="fleet-sparkline" role="img" aria-label={label} title={label}>
      <LineChart
        accessibilityLayer={false}
        width={88}
        height={24}
        data={data}
        margin={{ top: 2, right: 2, bottom: 2, left: 2 }}
      >
        <Line
          type="monotone"
          dataKey="value"
          stroke="currentColor"
          strokeWidth={1.5}
          dot={false}
          isAnimationActive={false}
        />
      </LineChart>
    </span>
  );
}
