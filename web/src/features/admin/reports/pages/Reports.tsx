import { Alert, Button, Card, Group, NativeSelect, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formatCount } from '../../../../shared/format/money.js';
import { formErrors } from '../../../../shared/forms/api-errors.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { CsvLink, queryString } from '../../../../shared/ui/CsvLink.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useUrlFilters } from '../../../../shared/ui/useFilters.js';
import { useAdminMoney } from '../../ui/useAdminMoney.js';
import { ProfitChart } from '../ProfitChart.js';

const FILTERS = ['from', 'to', 'granularity', 'group_by'] as const;
const GRANULARITIES = ['day', 'week', 'month'] as const;
const GROUPS = ['none', 'product', 'category', 'supplier', 'reseller', 'tier'] as const;

type Query = { from?: string; to?: string; granularity?: (typeof GRANULARITIES)[number]; group_by?: (typeof GROUPS)[number] };

/** Basis points as a percentage in the viewer's language (1234 → "12,34 %" in Indonesian). */
const percent = (bp: number | null, lang: string) =>
  bp === null ? '–' : new Intl.NumberFormat(lang === 'id' ? 'id-ID' : 'en-US', { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(bp / 10_000);

/** Profit and loss: filters in the URL, a chart per period, a table by group (or period), the same as CSV. */
export default function Reports() {
  const { t, i18n } = useTranslation();
  const money = useAdminMoney();
  const { filters, apply } = useUrlFilters(FILTERS);
  const query = Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) as Query;
  const report = useQuery({
    queryKey: ['admin', 'reports', 'profit', query],
    queryFn: () => callData(adminApi.GET('/reports/profit', { params: { query } })),
  });
  const errors = formErrors(report.error, ['from', 'to', 'granularity', 'group_by']);
  const r = report.data;
  const groupBy = r?.group_by ?? 'none';
  type Figures = NonNullable<typeof r>['totals'];
  const figureColumns = <R extends Figures>() => [
    { key: 'delivered', header: t('reports.delivered'), align: 'right' as const, cell: (x: R) => formatCount(x.delivered, i18n.language) },
    { key: 'revenue', header: t('reports.revenue'), align: 'right' as const, cell: (x: R) => money(x.revenue) },
    { key: 'cost', header: t('reports.cost'), align: 'right' as const, cell: (x: R) => money(x.cost) },
    { key: 'gross', header: t('reports.grossMargin'), align: 'right' as const, cell: (x: R) => money(x.gross_margin) },
    { key: 'bp', header: t('reports.marginPercent'), align: 'right' as const, cell: (x: R) => percent(x.margin_bp, i18n.language) },
    { key: 'net', header: t('reports.netMargin'), align: 'right' as const, cell: (x: R) => money(x.net_margin) },
    { key: 'refunds', header: t('reports.refunds'), align: 'right' as const, cell: (x: R) => `${formatCount(x.refunds, i18n.language)} · ${money(x.refunded)}` },
    { key: 'manual', header: t('reports.manualRefunds'), align: 'right' as const, cell: (x: R) => `${formatCount(x.manual_refunds, i18n.language)} · ${money(x.manual_refunded)}` },
  ];
  const groupName = (g: { key: string; name: string | null }) =>
    groupBy === 'tier' ? g.key : groupBy === 'supplier' && g.key === '' ? t('reports.noSupplier') : g.name ? `${g.name} (${g.key})` : g.key;
  return (
    <>
      <PageTitle actions={<CsvLink href={`/admin/v1/reports/profit/export.csv${queryString(filters)}`} />}>{t('reports.profit')}</PageTitle>
      <Card withBorder mb="md">
        <form
          key={JSON.stringify(filters)}
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            apply(Object.fromEntries(FILTERS.map((k) => [k, String(f.get(k) ?? '')])));
          }}
        >
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            <TextInput name="from" type="date" label={t('reports.from')} defaultValue={filters.from || r?.from} error={errors.fields.from} />
            <TextInput name="to" type="date" label={t('reports.to')} defaultValue={filters.to || r?.to} error={errors.fields.to} />
            <NativeSelect name="granularity" label={t('reports.granularity')} defaultValue={filters.granularity || 'day'}
              data={GRANULARITIES.map((g) => ({ value: g, label: t(`reports.periods.${g}`) }))} />
            <NativeSelect name="group_by" label={t('reports.groupBy')} defaultValue={filters.group_by || 'none'}
              data={GROUPS.map((g) => ({ value: g, label: t(`reports.groups.${g}`) }))} />
          </SimpleGrid>
          <Group mt="sm" gap="xs">
            <Button type="submit" size="sm">{t('apply')}</Button>
            <Button variant="default" size="sm" onClick={() => apply({})}>{t('reset')}</Button>
          </Group>
        </form>
        {r ? <Text size="xs" c="dimmed" mt="xs">{t('reports.zone', { zone: r.time_zone, offset: r.utc_offset })}</Text> : null}
      </Card>
      {report.error && !errors.fields.from && !errors.fields.to ? <ErrorAlert error={report.error} /> : null}
      {r ? (
        <>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} mb="md">
            {([
              ['revenue', money(r.totals.revenue)], ['cost', money(r.totals.cost)], ['grossMargin', money(r.totals.gross_margin)],
              ['marginPercent', percent(r.totals.margin_bp, i18n.language)], ['netMargin', money(r.totals.net_margin)], ['delivered', formatCount(r.totals.delivered, i18n.language)],
            ] as const).map(([k, v]) => (
              <Card withBorder key={k} data-testid={`total-${k}`}>
                <Text size="sm" c="dimmed">{t(`reports.${k}`)}</Text>
                <Text fz={20} fw={700}>{v}</Text>
              </Card>
            ))}
          </SimpleGrid>
          {r.totals.cost_unknown > 0 ? <Alert color="yellow" mb="md">{t('reports.costUnknownNote', { count: r.totals.cost_unknown })}</Alert> : null}
          <Card withBorder mb="md">
            <Text fw={600} mb="xs">{t('reports.chart')}</Text>
            <ProfitChart periods={r.periods} money={money} />
          </Card>
          <Card withBorder mb="md">
            {groupBy === 'none' ? (
              <DataTable caption={t('reports.byPeriod')} rows={r.periods} rowKey={(p) => p.start}
                columns={[{ key: 'period', header: t('reports.period'), cell: (p) => (p.start === p.end ? p.start : `${p.start} – ${p.end}`) }, ...figureColumns<(typeof r.periods)[number]>()]} />
            ) : (
              <DataTable caption={t('reports.table', { group: t(`reports.groups.${groupBy}`) })} rows={r.groups} rowKey={(g) => g.key}
                columns={[{ key: 'group', header: t(`reports.groups.${groupBy}`), cell: groupName }, ...figureColumns<(typeof r.groups)[number]>()]} />
            )}
          </Card>
        </>
      ) : null}
    </>
  );
}
