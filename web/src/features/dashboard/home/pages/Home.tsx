import { Anchor, Badge, Card, Group, List, SegmentedControl, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatMoney } from '../../../../shared/format/money.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { QueryState } from '../../../../shared/ui/QueryState.js';
import { StateBadge } from '../../../../shared/ui/StateBadge.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { useOverview } from '../hooks.js';

// The chart library is most of this page's code: loaded after the figures are on screen.
const SpendChart = lazy(() => import('../SpendChart.js').then((m) => ({ default: m.SpendChart })));

const STEPS = [
  { key: 'approved', to: null },
  { key: 'api_key', to: '/settings/api-keys' },
  { key: 'ip_whitelisted', to: '/settings/ip-whitelist' },
  { key: 'callback_url', to: '/settings/callback-url' },
] as const;
const STATES = ['processing', 'success', 'failed', 'refunded'] as const;

export default function Home() {
  const { t, i18n } = useTranslation();
  const overview = useOverview();
  const [days, setDays] = useState('7');
  return (
    <>
      <PageTitle>{t('home.title')}</PageTitle>
      <QueryState query={overview}>
        {(o) => (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              <Card withBorder>
                <Text size="sm" c="dimmed">{t('home.balance')}</Text>
                <Text fz={28} fw={700} data-testid="balance">{formatMoney(o.balance, o.currency, i18n.language)}</Text>
              </Card>
              <Card withBorder>
                <Text size="sm" c="dimmed" mb="xs">{t('home.today')}</Text>
                <Group gap="md">
                  {STATES.map((s) => (
                    <Stack key={s} gap={2} align="center">
                      <Text fw={700} fz="xl">{o.orders_today[s]}</Text>
                      <StateBadge state={s} />
                    </Stack>
                  ))}
                </Group>
              </Card>
              <Card withBorder>
                <Title order={2} size="h4" mb="xs">{t('home.onboarding')}</Title>
                <List spacing={6} size="sm" center>
                  {STEPS.map((s) => {
                    const done = o.onboarding[s.key];
                    return (
                      <List.Item key={s.key} icon={<ThemeIcon color={done ? 'green' : 'gray'} size={18} radius="xl" aria-hidden><span style={{ fontSize: 11 }}>{done ? '✓' : '•'}</span></ThemeIcon>}>
                        {s.to && !done ? <Anchor component={Link} to={s.to}>{t(`home.steps.${s.key}`)}</Anchor> : t(`home.steps.${s.key}`)}{' '}
                        <Badge size="xs" variant="light" color={done ? 'green' : 'gray'}>{done ? t('home.done') : s.key === 'approved' ? t('home.waiting') : t('home.todo')}</Badge>
                      </List.Item>
                    );
                  })}
                </List>
              </Card>
            </SimpleGrid>
            <Card withBorder>
              <Group justify="space-between" mb="sm">
                <Title order={2} size="h4">{t('home.spend')}</Title>
                <SegmentedControl
                  size="xs"
                  value={days}
                  onChange={setDays}
                  aria-label={t('home.spendRange')}
                  data={[{ value: '7', label: t('home.days7') }, { value: '30', label: t('home.days30') }]}
                />
              </Group>
              <Suspense fallback={<div style={{ height: 220 }} />}>
                <SpendChart days={o.spend_daily.slice(-Number(days))} currency={o.currency} />
              </Suspense>
            </Card>
            <Card withBorder>
              <Group justify="space-between" mb="sm">
                <Title order={2} size="h4">{t('home.recent')}</Title>
                <Anchor component={Link} to="/orders" size="sm">{t('home.allOrders')}</Anchor>
              </Group>
              <DataTable
                caption={t('home.recent')}
                rows={o.recent_orders}
                rowKey={(r) => r.order_id}
                columns={[
                  { key: 'code', header: t('orders.code'), cell: (r) => <Anchor component={Link} to={`/orders/${r.order_id}`}>{r.order_code}</Anchor> },
                  { key: 'ref', header: t('orders.refId'), cell: (r) => r.ref_id },
                  { key: 'product', header: t('orders.product'), cell: (r) => r.product_name },
                  { key: 'price', header: t('orders.price'), cell: (r) => formatMoney(r.price, o.currency, i18n.language), align: 'right' },
                  { key: 'state', header: t('orders.state'), cell: (r) => <StateBadge state={r.status} /> },
                  { key: 'at', header: t('orders.createdAt'), cell: (r) => formatDateTime(r.created_at, i18n.language) },
                ]}
              />
            </Card>
          </Stack>
        )}
      </QueryState>
    </>
  );
}
