import { Alert, Badge, Button, Card, Group, NumberInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { formValues, useApiForm } from '../../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useCan } from '../../auth/hooks.js';
import { useAdminMoney } from '../../ui/useAdminMoney.js';

/** Each product's routes, best first: priority, availability from the last check, refresh now. */
export function RoutesCard() {
  const { t, i18n } = useTranslation();
  const may = useCan()('supply.manage');
  const money = useAdminMoney();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['admin', 'routes'], queryFn: () => callData(adminApi.GET('/routes')) });
  const done = () => void qc.invalidateQueries({ queryKey: ['admin'] });
  const refresh = useMutation({ mutationFn: () => callData(adminApi.POST('/supply/refresh', { body: {} })), onSuccess: done });
  const patch = useMutation({
    mutationFn: (v: { id: string; priority?: number; enabled?: boolean }) => callData(adminApi.PATCH('/routes/{id}', { params: { path: { id: v.id } }, body: { priority: v.priority, enabled: v.enabled } })),
    onSuccess: done,
  });
  const add = useApiForm(['product_code', 'supplier', 'sku', 'priority', 'cost'], {
    mutationFn: (v: Record<string, string>) => callData(adminApi.POST('/routes', {
      body: { product_code: v.product_code ?? '', supplier: v.supplier ?? '', sku: v.sku ?? '', priority: Number(v.priority || 'NaN'), cost: Number(v.cost || 'NaN') },
    })),
    onSuccess: done,
  });
  const last = list.data?.last_refresh;
  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">{t('supply.routes')}</Title>
        <Group>
          <Text size="sm" c="dimmed">{last ? t('supply.lastRefresh', { at: formatDateTime(last.finished_at, i18n.language) }) : t('supply.neverRefreshed')}</Text>
          {may ? <Button size="xs" onClick={() => refresh.mutate()} loading={refresh.isPending}>{t('supply.refreshNow')}</Button> : null}
        </Group>
      </Group>
      <Stack>
        {last?.availability_check_failed ? <Alert color="yellow">{t('supply.checkFailed')}</Alert> : null}
        {[list.error, refresh.error, patch.error].map((e, i) => (e ? <ErrorAlert key={i} error={e} /> : null))}
        <DataTable
          caption={t('supply.routes')}
          rows={list.data?.routes ?? []}
          rowKey={(r) => r.id}
          columns={[
            { key: 'product', header: t('orders.product'), cell: (r) => r.product_code },
            { key: 'supplier', header: t('orders.supplier'), cell: (r) => r.supplier_name },
            { key: 'sku', header: t('orders.sku'), cell: (r) => r.sku },
            {
              key: 'priority', header: t('supply.priority'),
              cell: (r) => <NumberInput size="xs" w={80} aria-label={`${t('supply.priority')} ${r.product_code} ${r.supplier_name}`} defaultValue={r.priority} min={0} onBlur={(e) => { const n = Number(e.currentTarget.value); if (n !== r.priority) patch.mutate({ id: r.id, priority: n }); }} />,
            },
            { key: 'cost', header: t('supply.cost'), align: 'right', cell: (r) => money(r.cost) },
            { key: 'avail', header: t('supply.available'), cell: (r) => (r.available === null ? <Badge color="gray" variant="light">{t('supply.unknown')}</Badge> : r.available ? <Badge color="green" variant="light">{t('yes')}</Badge> : <Badge color="red" variant="light">{t('no')}</Badge>) },
            { key: 'checked', header: t('supply.checkedAt'), cell: (r) => formatDateTime(r.checked_at, i18n.language) },
            { key: 'x', header: t('actions'), align: 'right', cell: (r) => !may ? null : <Button size="xs" variant="light" onClick={() => patch.mutate({ id: r.id, enabled: !r.enabled })}>{r.enabled ? t('supply.disable') : t('supply.enable')}</Button> },
          ]}
        />
        {may ? <form noValidate onSubmit={(e) => add.mutate(formValues(e))}>
          <Group align="flex-start" wrap="wrap">
            <TextInput name="product_code" label={t('orders.product')} w={130} error={add.errors.fields.product_code} />
            <TextInput name="supplier" label={t('orders.supplier')} w={160} error={add.errors.fields.supplier} />
            <TextInput name="sku" label={t('orders.sku')} w={130} error={add.errors.fields.sku} />
            <TextInput name="priority" label={t('supply.priority')} w={90} error={add.errors.fields.priority} />
            <TextInput name="cost" label={t('supply.cost')} w={120} error={add.errors.fields.cost} />
            <Button type="submit" mt={25} loading={add.isPending}>{t('supply.addRoute')}</Button>
          </Group>
          {add.errors.general ? <Alert color="red" role="alert" mt="sm">{add.errors.general}</Alert> : null}
        </form> : null}
      </Stack>
    </Card>
  );
}
