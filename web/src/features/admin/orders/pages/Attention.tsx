import { Card, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { useUrlFilters } from '../../../../shared/ui/useFilters.js';
import { OrdersTable, useOrderSearch } from '../OrdersTable.js';

/** Orders fulfilment could not settle on its own: a person decides (refund, or ask the supplier). */
export default function Attention() {
  const { t } = useTranslation();
  const { page, setPage } = useUrlFilters([] as const);
  const orders = useOrderSearch({ needs_attention: 'true', page });
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
