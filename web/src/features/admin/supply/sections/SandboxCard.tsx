import { Card, Checkbox, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useCan } from '../../auth/hooks.js';

type Switches = Awaited<ReturnType<typeof load>>;
const load = () => callData(adminApi.GET('/sandbox'));

/** The sandbox supplier's switches: its mode, and per product out of stock / broken availability check. */
export function SandboxCard() {
  const { t } = useTranslation();
  const may = useCan()('supply.manage');
  const qc = useQueryClient();
  const key = ['admin', 'sandbox'];
  const sw = useQuery({ queryKey: key, queryFn: load });
  const set = (s: Switches) => qc.setQueryData(key, s);
  const mode = useMutation({ mutationFn: (m: 'up' | 'down' | 'maintenance') => callData(adminApi.PUT('/sandbox', { body: { mode: m } })), onSuccess: set });
  const toggle = useMutation({
    mutationFn: (v: { code: string; list: 'out-of-stock' | 'broken-availability'; on: boolean }) => {
      const params = { path: { code: v.code } };
      if (v.list === 'out-of-stock') return callData(v.on ? adminApi.PUT('/sandbox/products/{code}/out-of-stock', { params, body: {} }) : adminApi.DELETE('/sandbox/products/{code}/out-of-stock', { params }));
      return callData(v.on ? adminApi.PUT('/sandbox/products/{code}/broken-availability', { params, body: {} }) : adminApi.DELETE('/sandbox/products/{code}/broken-availability', { params }));
    },
    onSuccess: set,
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">{t('supply.sandbox')}</Title>
      <Stack>
        <Text size="sm">{t('supply.sandboxIntro')}</Text>
        {[sw.error, mode.error, toggle.error].map((e, i) => (e ? <ErrorAlert key={i} error={e} /> : null))}
        {sw.data ? (
          <>
            <SegmentedControl
              aria-label={t('supply.mode')}
              disabled={!may}
              value={sw.data.mode}
              onChange={(m) => mode.mutate(m as never)}
              data={[{ value: 'up', label: t('supply.up') }, { value: 'maintenance', label: t('home.maintenance') }, { value: 'down', label: t('supply.down') }]}
            />
            <DataTable
              caption={t('supply.sandbox')}
              rows={sw.data.products}
              rowKey={(p) => `${p.product_code}-${p.sku}`}
              columns={[
                { key: 'product', header: t('orders.product'), cell: (p) => p.product_code },
                { key: 'sku', header: t('orders.sku'), cell: (p) => p.sku },
                { key: 'oos', header: t('supply.outOfStock'), cell: (p) => <Checkbox disabled={!may} aria-label={`${t('supply.outOfStock')} ${p.product_code}`} checked={p.out_of_stock} onChange={(e) => toggle.mutate({ code: p.product_code, list: 'out-of-stock', on: e.currentTarget.checked })} /> },
                { key: 'broken', header: t('supply.brokenCheck'), cell: (p) => <Checkbox disabled={!may} aria-label={`${t('supply.brokenCheck')} ${p.product_code}`} checked={p.availability_check === 'broken'} onChange={(e) => toggle.mutate({ code: p.product_code, list: 'broken-availability', on: e.currentTarget.checked })} /> },
              ]}
            />
          </>
        ) : null}
      </Stack>
    </Card>
  );
}
