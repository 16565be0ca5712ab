import { Anchor, Card, Group, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pageQuery, usePage } from '../../../../shared/table/usePagedList.js';
import { fetchOrders, OrdersTable } from '../../orders/OrdersTable.js';
import type { Reseller } from './types.js';

/** The reseller's newest orders, and a link to all of them in the order search. */
export function OrdersCard({ reseller: r }: { reseller: Reseller }) {
  const { t } = useTranslation();
  const orders = usePage(['admin', 'orders'], pageQuery({ reseller_id: r.id }, 1, 10), fetchOrders);
  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">{t('resellers.detail.orders')}</Title>
        <Anchor component={Link} to={`/orders?reseller_id=${encodeURIComponent(r.id)}`}>{t('resellers.detail.allOrders')}</Anchor>
      </Group>
      <OrdersTable query={orders} showReseller={false} />
    </Card>
  );
}
