import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { QueryState } from '../../../../shared/ui/QueryState.js';
import { useAdminMoney } from '../../ui/useAdminMoney.js';
import { OrdersChart } from '../OrdersChart.js';
import { PendingApprovals } from '../../approvals/PendingApprovals.js';

function Stat(props: { label: string; value: ReactNode; to?: string; hint?: ReactNode }) {
  return (
    <Card withBorder>
      <Text size="sm" c="dimmed">{props.label}</Text>
      <Text size="xl" fw={700}>{props.to ? <Anchor component={Link} to={props.to} inherit>{props.value}</Anchor> : props.value}</Text>
      {props.hint ? <Text size="xs" c="dimmed">{props.hint}</Text> : null}
    </Card>
  );
}

const age = (seconds: number | null) => (seconds === null ? '—' : seconds < 120 ? `${seconds} s` : seconds < 7200 ? `${Math.floor(seconds / 60)} min` : `${Math.floor(seconds / 3600)} h`);

/** The platform's pulse: throughput, outcomes, backlog, what needs a person, supply, money held. */
export default function Home() {
  const { t, i18n } = useTranslation();
  const money = useAdminMoney();
  const overview = useQuery({ queryKey: ['admin', 'overview'], queryFn: () => callData(adminApi.GET('/overview')), refetchInterval: 30_000 });
  return (
    <>
      <PageTitle>{t('home.title')}</PageTitle>
      <QueryState query={overview}>
        {(o) => (
          <Stack>
            <PendingApprovals />
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
              <Stat label={t('home.revenueToday')} value={money(o.today.revenue)} to="/reports" hint={t('home.deliveredToday', { count: o.today.delivered })} />
              <Stat label={t('home.marginToday')} value={money(o.today.gross_margin)} to="/reports"
                hint={o.today.margin_bp === null ? undefined : t('home.marginPercent', { percent: (o.today.margin_bp / 100).toLocaleString(i18n.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }) })} />
              <Stat label={t('home.perMinute')} value={o.orders_per_minute.toLocaleString(i18n.language)} />
              <Stat label={t('home.successRate')} value={o.success_rate_24h === null ? '—' : `${(o.success_rate_24h * 100).toFixed(1)}%`} />
              <Stat label={t('home.processing')} value={o.processing.count} to="/orders?status=processing" hint={t('home.oldest', { age: age(o.processing.oldest_age_seconds) })} />
              <Stat label={t('home.attention')} value={o.needs_attention} to="/attention" />
              <Stat label={t('home.attentionItems')} value={o.attention_items} to="/attention" />
              <Stat label={t('home.callbacks')} value={o.callbacks.retrying} hint={t('home.callbacksFailed', { count: o.callbacks.failed_24h })} />
              <Stat label={t('home.balances')} value={money(o.reseller_balances)} to="/resellers" />
            </SimpleGrid>
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">{t('home.chart')}</Title>
              <Tabs defaultValue="hours">
                <Tabs.List>
                  <Tabs.Tab value="hours">{t('home.hours')}</Tabs.Tab>
                  <Tabs.Tab value="days">{t('home.days')}</Tabs.Tab>
                </Tabs.List>
                <Tabs.Panel value="hours" pt="sm"><OrdersChart buckets={o.hourly} unit="hour" caption={t('home.hours')} /></Tabs.Panel>
                <Tabs.Panel value="days" pt="sm"><OrdersChart buckets={o.daily} unit="day" caption={t('home.days')} /></Tabs.Panel>
              </Tabs>
            </Card>
            <Card withBorder>
              <Group justify="space-between" mb="sm">
                <Title order={2} size="h4">{t('home.suppliers')}</Title>
                <Anchor component={Link} to="/supply">{t('nav.supply')}</Anchor>
              </Group>
              <DataTable
                caption={t('home.suppliers')}
                rows={o.suppliers}
                rowKey={(s) => s.id}
                columns={[
                  { key: 'name', header: t('home.supplier'), cell: (s) => s.name },
                  {
                    key: 'health', header: t('home.health'),
                    cell: (s) => (!s.enabled ? <Badge color="gray" variant="light">{t('home.disabled')}</Badge>
                      : s.status === 'maintenance' ? <Badge color="yellow" variant="light">{t('home.maintenance')}</Badge>
                        : s.breaker === 'open' ? <Badge color="red" variant="light">{t('home.failing')}</Badge>
                          : s.breaker === 'half_open' ? <Badge color="orange" variant="light">{t('home.probing')}</Badge>
                          : <Badge color="green" variant="light">{t('home.healthy')}</Badge>),
                  },
                  { key: 'fails', header: t('home.failures'), align: 'right', cell: (s) => s.consecutive_failures },
                  { key: 'err', header: t('home.lastError'), cell: (s) => s.last_error ?? '—' },
                  { key: 'at', header: t('home.checked'), cell: (s) => formatDateTime(s.checked_at, i18n.language) },
                  { key: 'bal', header: t('home.balance'), align: 'right', cell: (s) => (s.balance === null ? t('home.notTracked') : <>{money(s.balance)}{s.balance_flagged ? <Badge ml="xs" color="red" variant="light">{t('home.lowBalance')}</Badge> : null}</>) },
                ]}
              />
            </Card>
            <Text size="xs" c="dimmed">{t('home.asOf', { at: formatDateTime(o.at, i18n.language) })}</Text>
          </Stack>
        )}
      </QueryState>
    </>
  );
}
