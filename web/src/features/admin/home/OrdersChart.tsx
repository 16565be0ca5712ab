import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../shared/format/money.js';

export interface Bucket { start: string; orders: number; success: number; failed: number; refunded: number }

/** Orders per hour or day by outcome, stacked; the same figures as a hidden table for screen readers. */
export function OrdersChart(props: { buckets: Bucket[]; unit: 'hour' | 'day'; caption: string }) {
  const { t, i18n } = useTranslation();
  const fmt = new Intl.DateTimeFormat(localeOf(i18n.language), props.unit === 'hour' ? { hour: '2-digit', minute: '2-digit' } : { day: 'numeric', month: 'short' });
  const data = props.buckets.map((b) => ({
    at: fmt.format(new Date(b.start)), success: b.success, failed: b.failed, refunded: b.refunded,
    processing: Math.max(0, b.orders - b.success - b.failed - b.refunded),
  }));
  return (
    <>
      <div aria-hidden="true">
        <BarChart
          h={220}
          data={data}
          dataKey="at"
          type="stacked"
          series={[
            { name: 'success', label: t('states.success'), color: 'teal.7' },
            { name: 'failed', label: t('states.failed'), color: 'red.7' },
            { name: 'refunded', label: t('states.refunded'), color: 'orange.6' },
            { name: 'processing', label: t('states.processing'), color: 'blue.6' },
          ]}
          tickLine="none"
          gridAxis="y"
        />
      </div>
      <table className="visually-hidden">
        <caption>{props.caption}</caption>
        <tbody>
          {data.map((d, i) => (
            <tr key={`${d.at}-${i}`}><th scope="row">{d.at}</th><td>{d.success}</td><td>{d.failed}</td><td>{d.refunded}</td><td>{d.processing}</td></tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
