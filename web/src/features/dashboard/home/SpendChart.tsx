import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { useTranslation } from 'react-i18next';
import { formatDay } from '../../../shared/format/dates.js';
import { formatMoney } from '../../../shared/format/money.js';

/** Daily spend as bars, with the days' figures also as a hidden table for screen readers. */
export function SpendChart(props: { days: { date: string; amount: number; orders: number }[]; currency: string }) {
  const { t, i18n } = useTranslation();
  const data = props.days.map((d) => ({ day: formatDay(d.date, i18n.language), amount: d.amount, orders: d.orders }));
  return (
    <>
      <div aria-hidden="true">
        <BarChart
          h={220}
          data={data}
          dataKey="day"
          series={[{ name: 'amount', label: t('home.amount'), color: 'indigo.7' }]}
          valueFormatter={(v) => formatMoney(v, props.currency, i18n.language)}
          withYAxis={false}
          tickLine="none"
          gridAxis="y"
        />
      </div>
      <table className="visually-hidden">
        <caption>{t('home.spend')}</caption>
        <tbody>
          {data.map((d) => (
            <tr key={d.day}><th scope="row">{d.day}</th><td>{formatMoney(d.amount, props.currency, i18n.language)}</td><td>{d.orders}</td></tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
