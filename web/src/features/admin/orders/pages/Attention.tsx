import { Card, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { usePagedList } from '../../../../shared/table/usePagedList.js';
import { fetchOrders, OrdersTable } from '../OrdersTable.js';

/** Orders fulfilment could not settle on its own: a person decides (refund, or ask the supplier). */
export default function Attention() {
  const { t } = useTranslation();
  const { setPage, list: orders } = usePagedList([], ['admin', 'orders'], fetchOrders, { fixed: { needs_attention: 'true' } });
  return (
    <>
      <PageTitle>{t('orders.attentionTitle')}</PageTitle>
      <Text size="sm" mb="md">{t('orders.attentionIntro')}</Text>
      <Card withBorder>
        <OrdersTable query={orders} onPage={setPage} />
      </Card>
    </>
  );
}
