import { Alert, Anchor, Badge, Group } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { adminApi } from '../../../shared/api/admin.js';
import { call } from '../../../shared/api/client.js';
import { formatDateTime } from '../../../shared/format/dates.js';
import { DataTable } from '../../../shared/table/DataTable.js';
import type { PageQuery } from '../../../shared/table/usePagedList.js';
import { ErrorAlert } from '../../../shared/ui/QueryState.js';
import { StateBadge } from '../../../shared/ui/StateBadge.js';
import { useAdminMoney } from '../ui/useAdminMoney.js';

/** One page of the order search across resellers (the server pages it: never all orders at once). */
export const fetchOrders = (query: PageQuery) => call(adminApi.GET('/orders', { params: { query } }));
type OrdersPage = Awaited<ReturnType<typeof fetchOrders>>;

export function OrdersTable(props: { query: UseQueryResult<OrdersPage>; showReseller?: boolean; onPage?(n: number): void }) {
  const { t, i18n } = useTranslation();
  const money = useAdminMoney();
  const q = props.query;
  return (
    <>
      {q.error ? <ErrorAlert error={q.error} /> : null}
      {q.data?.data.matches_capped ? <Alert color="yellow" mb="sm">{t('orders.capped', { count: q.data.meta?.total })}</Alert> : null}
      <DataTable
        caption={t('orders.title')}
        rows={q.data?.data.orders ?? []}
        rowKey={(o) => o.order_id}
        meta={props.onPage ? (q.data?.meta as never) : undefined}
        capped={q.data?.data.matches_capped}
        onPage={props.onPage}
        columns={[
          { key: 'id', header: t('orders.orderCode'), cell: (o) => <Anchor component={Link} to={`/orders/${o.order_id}`} ff="monospace" size="sm">{o.order_code}</Anchor> },
          { key: 'ref', header: t('orders.refId'), cell: (o) => o.ref_id },
          ...(props.showReseller === false ? [] : [{ key: 'reseller', header: t('orders.reseller'), cell: (o: { reseller_id: string; reseller_name: string; reseller_email: string }) => <Anchor component={Link} to={`/resellers/${o.reseller_id}`} size="sm" title={o.reseller_email}>{o.reseller_name}</Anchor> }]),
          { key: 'product', header: t('orders.product'), cell: (o) => o.product_code },
          { key: 'price', header: t('orders.amount'), align: 'right', cell: (o) => money(o.price) },
          {
            key: 'status', header: t('orders.status'),
            cell: (o) => <Group gap={4} wrap="nowrap"><StateBadge state={o.status} />{o.needs_attention ? <Badge color="yellow" variant="light">{t('orders.attention')}</Badge> : null}</Group>,
          },
          { key: 'created', header: t('orders.created'), cell: (o) => formatDateTime(o.created_at, i18n.language) },
        ]}
      />
    </>
  );
}
