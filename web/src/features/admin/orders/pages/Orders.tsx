import { Button, Card, Group, NativeSelect, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formValues } from '../../../../shared/forms/useApiForm.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { usePagedList } from '../../../../shared/table/usePagedList.js';
import { fetchOrders, OrdersTable } from '../OrdersTable.js';
import { ShopPicker } from '../../resellers/ShopPicker.js';

const KEYS = ['status', 'reseller_id', 'ref_id', 'start_date', 'end_date'] as const;

/** Orders across resellers, filtered and paged by the server. */
export default function Orders() {
  const { t } = useTranslation();
  const { filters, apply, setPage, list: orders } = usePagedList(KEYS, ['admin', 'orders'], fetchOrders);
  return (
    <>
      <PageTitle>{t('orders.title')}</PageTitle>
      <Card withBorder mb="md">
        <form key={JSON.stringify(filters)} onSubmit={(e) => apply(formValues(e))}>
          <Group align="flex-end" wrap="wrap">
            <NativeSelect name="status" label={t('orders.status')} defaultValue={filters.status}
              data={[{ value: '', label: t('all') }, ...(['processing', 'success', 'failed', 'refunded'] as const).map((s) => ({ value: s, label: t(`states.${s}`) }))]} />
            <ShopPicker name="reseller_id" label={t('orders.reseller')} defaultValue={filters.reseller_id} w={280} />
            <TextInput name="ref_id" label={t('orders.refId')} defaultValue={filters.ref_id} w={180} />
            <TextInput name="start_date" type="date" label={t('from')} defaultValue={filters.start_date} />
            <TextInput name="end_date" type="date" label={t('to')} defaultValue={filters.end_date} />
            <Button type="submit">{t('search')}</Button>
          </Group>
        </form>
      </Card>
      <Card withBorder>
        <OrdersTable query={orders} onPage={setPage} />
      </Card>
    </>
  );
}
