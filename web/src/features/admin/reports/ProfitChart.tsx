import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { useTranslation } from 'react-i18next';

export interface PeriodFigures { start: string; revenue: number; cost: number; gross_margin: number }

/** Revenue, cost and gross margin per period, side by side; the same figures as a hidden table for screen readers. */
export function ProfitChart(props: { periods: PeriodFigures[]; money: (n: number) => string }) {
  const { t } = useTranslation();
  const data = props.periods.map((p) => ({ at: p.start, revenue: p.revenue, cost: p.cost, margin: p.gross_margin }));
  return (
    <>
      <div aria-hidden="true" data-testid="profit-chart">
        <BarChart
          h={260}
          data={data}
          dataKey="at"
          series={[
            { name: 'revenue', label: t('reports.revenue'), color: 'blue.6' },
            { name: 'cost', label: t('reports.cost'), color: 'orange.6' },
            { name: 'margin', label: t('reports.grossMargin'), color: 'teal.7' },
          ]}
          valueFormatter={props.money}
          withLegend
          tickLine="none"
          gridAxis="y"
          yAxisProps={{ width: 96 }}
        />
      </div>
      <table className="visually-hidden">
        <caption>{t('reports.chart')}</caption>
        <thead><tr><th scope="col">{t('reports.period')}</th><th scope="col">{t('reports.revenue')}</th><th scope="col">{t('reports.cost')}</th><th scope="col">{t('reports.grossMargin')}</th></tr></thead>
        <tbody>
          {data.map((d) => (
            <tr key={d.at}><th scope="row">{d.at}</th><td>{props.money(d.revenue)}</td><td>{props.money(d.cost)}</td><td>{props.money(d.margin)}</td></tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
