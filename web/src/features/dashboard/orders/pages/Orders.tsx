import { Alert, Anchor, Button, Card, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { formatCount } from '../../../../shared/format/money.js';
import { formErrors } from '../../../../shared/forms/api-errors.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { CsvLink, queryString } from '../../../../shared/ui/CsvLink.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { StateBadge } from '../../../../shared/ui/StateBadge.js';
import { useMoney } from '../../../../shared/ui/useCurrency.js';
import { usePagedList } from '../../../../shared/table/usePagedList.js';
import { fetchOrders, ORDER_FILTERS } from '../hooks.js';

const STATES = ['processing', 'success', 'failed', 'refunded'];

export default function Orders() {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const { filters, apply, setPage, list: orders } = usePagedList(ORDER_FILTERS, ['orders'], fetchOrders);
  // A refused filter (bad date, range too long) is shown by the field it names.
  const errors = formErrors(orders.error, ['start_date', 'end_date', 'status', 'product_code', 'ref_id']);
  return (
    <>
      <PageTitle actions={<CsvLink href={`/dashboard/v1/orders/export.csv${queryString(filters)}`} />}>{t('orders.title')}</PageTitle>
      <Card withBorder mb="md">
        <form
          key={JSON.stringify(filters)}
          aria-label={t('orders.filters')}
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            apply(Object.fromEntries(ORDER_FILTERS.map((k) => [k, String(f.get(k) ?? '')])));
          }}
        >
          <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
            <Select
              name="status"
              label={t('orders.state')}
              defaultValue={filters.status || ''}
              data={[{ value: '', label: t('all') }, ...STATES.map((s) => ({ value: s, label: t(`states.${s}`) }))]}
              error={errors.fields.status}
              allowDeselect={false}
            />
            <TextInput name="start_date" type="date" label={t('from')} defaultValue={filters.start_date} error={errors.fields.start_date} />
            <TextInput name="end_date" type="date" label={t('to')} defaultValue={filters.end_date} error={errors.fields.end_date} />
            <TextInput name="product_code" label={t('orders.productCode')} defaultValue={filters.product_code} error={errors.fields.product_code} />
            <TextInput name="ref_id" label={t('orders.refIdSearch')} defaultValue={filters.ref_id} error={errors.fields.ref_id} />
          </SimpleGrid>
          <Group mt="sm" gap="xs">
            <Button type="submit" size="sm">{t('apply')}</Button>
            <Button variant="default" size="sm" onClick={() => apply({})}>{t('reset')}</Button>
          </Group>
        </form>
      </Card>
      {errors.general ? <ErrorAlert error={orders.error} /> : null}
      {orders.data?.data.matches_capped ? <Alert color="yellow" mb="sm">{t('orders.capped', { n: formatCount(orders.data.meta?.total ?? 0, i18n.language) })}</Alert> : null}
      <Card withBorder>
        <DataTable
          caption={t('orders.title')}
          rows={orders.data?.data.orders ?? []}
          rowKey={(r) => r.order_id}
          meta={orders.data?.meta}
          capped={orders.data?.data.matches_capped}
          onPage={setPage}
          columns={[
            { key: 'code', header: t('orders.code'), cell: (r) => <Anchor component={Link} to={`/orders/${r.order_id}`}>{r.order_code}</Anchor> },
            { key: 'ref', header: t('orders.refId'), cell: (r) => r.ref_id },
            { key: 'product', header: t('orders.product'), cell: (r) => r.product_name },
            { key: 'target', header: t('orders.target'), cell: (r) => r.target_id },
            { key: 'price', header: t('orders.price'), cell: (r) => money(r.price), align: 'right' },
            { key: 'state', header: t('orders.state'), cell: (r) => <StateBadge state={r.status} /> },
            { key: 'at', header: t('orders.createdAt'), cell: (r) => formatDateTime(r.created_at, i18n.language) },
          ]}
        />
      </Card>
    </>
  );
}
