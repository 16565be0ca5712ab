import { Anchor, Button, Card, Group, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { formErrors } from '../../../../shared/forms/api-errors.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { usePagedList, type PageQuery } from '../../../../shared/table/usePagedList.js';
import { CsvLink, queryString } from '../../../../shared/ui/CsvLink.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useMoney, useProfile } from '../../../../shared/ui/useCurrency.js';

const FILTERS = ['type', 'start_date', 'end_date'] as const;
const TYPES = ['order_debit', 'order_refund', 'credit', 'debit'];
const fetchHistory = (query: PageQuery) => call(dashboardApi.GET('/wallet-history', { params: { query } }));

export default function Wallet() {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const me = useProfile();
  const { filters, apply, setPage, list: history } = usePagedList(FILTERS, ['wallet-history'], fetchHistory);
  const errors = formErrors(history.error, FILTERS);
  return (
    <>
      <PageTitle actions={<Group gap="xs">
        <Button component={Link} to="/wallet/top-up" size="sm">{t('wallet.topUp')}</Button>
        <Button component={Link} to="/wallet/statement" variant="default" size="sm">{t('statement.open')}</Button>
        <CsvLink href={`/dashboard/v1/wallet-history/export.csv${queryString(filters)}`} />
      </Group>}>{t('wallet.title')}</PageTitle>
      <Card withBorder mb="md">
        <Text size="sm" c="dimmed">{t('wallet.balance')}</Text>
        <Text fz={28} fw={700} data-testid="balance">{me.data ? money(me.data.balance) : '…'}</Text>
      </Card>
      <Card withBorder mb="md">
        <form
          key={JSON.stringify(filters)}
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            apply(Object.fromEntries(FILTERS.map((k) => [k, String(f.get(k) ?? '')])));
          }}
        >
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Select
              name="type"
              label={t('wallet.type')}
              defaultValue={filters.type || ''}
              allowDeselect={false}
              data={[{ value: '', label: t('all') }, ...TYPES.map((v) => ({ value: v, label: t(`entryTypes.${v}`) }))]}
              error={errors.fields.type}
            />
            <TextInput name="start_date" type="date" label={t('from')} defaultValue={filters.start_date} error={errors.fields.start_date} />
            <TextInput name="end_date" type="date" label={t('to')} defaultValue={filters.end_date} error={errors.fields.end_date} />
          </SimpleGrid>
          <Group mt="sm" gap="xs">
            <Button type="submit" size="sm">{t('apply')}</Button>
            <Button variant="default" size="sm" onClick={() => apply({})}>{t('reset')}</Button>
          </Group>
        </form>
      </Card>
      {errors.general ? <ErrorAlert error={history.error} /> : null}
      <Card withBorder>
        <DataTable
          caption={t('wallet.ledger')}
          rows={history.data?.data.entries ?? []}
          rowKey={(r) => r.id}
          meta={history.data?.meta}
          onPage={setPage}
          columns={[
            { key: 'at', header: t('orders.time'), cell: (r) => formatDateTime(r.created_at, i18n.language) },
            { key: 'type', header: t('wallet.type'), cell: (r) => (r.source === 'deposit' && r.deposit_code ? t('wallet.depositEntry', { code: r.deposit_code }) : t(`entryTypes.${r.type}`)) },
            { key: 'amount', header: t('wallet.amount'), cell: (r) => money(r.amount), align: 'right' },
            { key: 'after', header: t('wallet.balanceAfter'), cell: (r) => money(r.balance_after), align: 'right' },
            { key: 'order', header: t('wallet.order'), cell: (r) => (r.order_id ? <Anchor component={Link} to={`/orders/${r.order_id}`}>{r.order_code}</Anchor> : '—') },
            { key: 'note', header: t('wallet.note'), cell: (r) => r.note ?? '' },
          ]}
        />
      </Card>
    </>
  );
}
