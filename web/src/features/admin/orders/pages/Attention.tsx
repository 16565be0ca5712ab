import { Card, Stack, Text } from '@mantine/core';
import { AttentionItemsCard } from '../../supply/sections/AttentionItemsCard.js';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { usePagedList } from '../../../../shared/table/usePagedList.js';
import { fetchOrders, OrdersTable } from '../OrdersTable.js';

/** What a person should look at: prices and routes a sync changed, and orders fulfilment could not settle on its own. */
export default function Attention() {
  const { t } = useTranslation();
  const { setPage, list: orders } = usePagedList([], ['admin', 'orders'], fetchOrders, { fixed: { needs_attention: 'true' } });
  return (
    <>
      <PageTitle>{t('orders.attentionTitle')}</PageTitle>
      <Text size="sm" mb="md">{t('orders.attentionIntro')}</Text>
      <Stack>
        <AttentionItemsCard />
        <Card withBorder>
          <OrdersTable query={orders} onPage={setPage} />
        </Card>
      </Stack>
    </>
  );
}
