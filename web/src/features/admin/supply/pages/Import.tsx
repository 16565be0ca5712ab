import { Alert, Anchor, Badge, Button, Card, Checkbox, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useAdminMoney } from '../../ui/useAdminMoney.js';
import { MarginRulesCard } from '../sections/MarginRulesCard.js';

type Input = { supplier: string; skus: string[]; category: string; catalog: string | null };

/**
 * Import SKUs of a supplier's synced price list as products: pick SKUs, a category and a
 * catalog, preview (products, routes, tier prices by the margin rule, warnings), then apply
 * exactly that preview (the server refuses if a cost changed in between).
 */
export default function Import() {
  const { t } = useTranslation();
  const money = useAdminMoney();
  const qc = useQueryClient();
  const suppliers = useQuery({ queryKey: ['admin', 'suppliers'], queryFn: () => callData(adminApi.GET('/suppliers')) });
  const categories = useQuery({ queryKey: ['admin', 'categories'], queryFn: () => callData(adminApi.GET('/categories')) });
  const catalogs = useQuery({ queryKey: ['admin', 'catalogs'], queryFn: () => callData(adminApi.GET('/catalogs')) });
  const [supplier, setSupplier] = useState('');
  const [category, setCategory] = useState('');
  const [catalog, setCatalog] = useState('');
  const [filter, setFilter] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const supplierId = supplier || suppliers.data?.suppliers.find((s) => s.adapter === 'digiflazz')?.id || '';
  const categorySlug = category || categories.data?.categories[0]?.slug || '';
  const skus = useQuery({
    queryKey: ['admin', 'supplier-skus', supplierId], enabled: supplierId !== '',
    queryFn: () => callData(adminApi.GET('/suppliers/{id}/skus', { params: { path: { id: supplierId } } })),
  });
  const input = (): Input => ({ supplier: supplierId, skus: chosen, category: categorySlug, catalog: catalog || null });
  const preview = useMutation({ mutationFn: (i: Input) => callData(adminApi.POST('/imports/preview', { body: i })) });
  const apply = useMutation({
    mutationFn: (v: { input: Input; token: string }) => callData(adminApi.POST('/imports/apply', { body: { ...v.input, preview_token: v.token } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['admin'] }),
  });
  // Any change to the choice makes the preview stale: it must be made again before applying.
  const reset = () => { preview.reset(); apply.reset(); };
  const toggle = (sku: string, on: boolean) => { reset(); setChosen((c) => (on ? [...c, sku] : c.filter((x) => x !== sku))); };
  const shown = (skus.data?.skus ?? []).filter((s) => !filter || `${s.sku} ${s.name} ${s.brand}`.toLowerCase().includes(filter.toLowerCase()));
  const plan = preview.data;
  const blocked = plan?.items.some((i) => i.error !== null) ?? true;
  const price = (n: number | null) => (n === null ? '—' : money(n));

  return (
    <>
      <PageTitle actions={<Anchor component={Link} to="/supply">{t('supply.title')}</Anchor>}>{t('supply.importTitle')}</PageTitle>
      <Stack>
        <Text size="sm">{t('supply.importIntro')}</Text>
        {[suppliers.error, categories.error, catalogs.error, skus.error].map((e, i) => (e ? <ErrorAlert key={i} error={e} /> : null))}
        <Card withBorder>
          <Group align="flex-end" wrap="wrap">
            <NativeSelect label={t('supply.supplier')} value={supplierId} onChange={(e) => { reset(); setChosen([]); setSupplier(e.currentTarget.value); }}
              data={(suppliers.data?.suppliers ?? []).map((s) => ({ value: s.id, label: `${s.name} (${s.adapter})` }))} />
            <NativeSelect label={t('supply.category')} value={categorySlug} onChange={(e) => { reset(); setCategory(e.currentTarget.value); }}
              data={(categories.data?.categories ?? []).map((c) => ({ value: c.slug, label: c.name }))} />
            <NativeSelect label={t('supply.catalog')} value={catalog} onChange={(e) => { reset(); setCatalog(e.currentTarget.value); }}
              data={[{ value: '', label: t('supply.noCatalog') }, ...(catalogs.data?.catalogs ?? []).map((k) => ({ value: k.id, label: k.name }))]} />
            <TextInput label={t('supply.filter')} value={filter} onChange={(e) => setFilter(e.currentTarget.value)} />
          </Group>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">{t('supply.priceList')}</Title>
          {skus.data && skus.data.skus.length === 0 ? <Text size="sm">{t('supply.noSkus')}</Text> : null}
          <DataTable
            caption={t('supply.priceList')}
            rows={shown}
            rowKey={(s) => s.sku}
            columns={[
              { key: 'pick', header: t('supply.pick'), cell: (s) => <Checkbox aria-label={t('supply.pickSku', { sku: s.sku })} checked={chosen.includes(s.sku)} onChange={(e) => toggle(s.sku, e.currentTarget.checked)} /> },
              { key: 'sku', header: t('orders.sku'), cell: (s) => s.sku },
              { key: 'name', header: t('supply.name'), cell: (s) => s.name },
              { key: 'brand', header: t('supply.brand'), cell: (s) => s.brand },
              { key: 'cost', header: t('supply.cost'), align: 'right', cell: (s) => money(s.cost) },
              { key: 'buyable', header: t('supply.buyable'), cell: (s) => (s.buyable ? <Badge color="green" variant="light">{t('yes')}</Badge> : <Badge color="red" variant="light">{t('no')}</Badge>) },
            ]}
          />
          <Group mt="sm">
            <Button disabled={chosen.length === 0 || !categorySlug} loading={preview.isPending} onClick={() => { apply.reset(); preview.mutate(input()); }}>
              {t('supply.preview', { count: chosen.length })}
            </Button>
          </Group>
        </Card>
        {preview.error ? <ErrorAlert error={preview.error} /> : null}
        {plan ? (
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">{t('supply.previewTitle')}</Title>
            <DataTable
              caption={t('supply.previewTitle')}
              rows={plan.items}
              rowKey={(i) => i.sku}
              columns={[
                { key: 'sku', header: t('orders.sku'), cell: (i) => i.sku },
                { key: 'action', header: t('supply.action'), cell: (i) => <Badge variant="light" color={i.action === 'create' ? 'blue' : 'grape'}>{t(`supply.action_${i.action}`)}</Badge> },
                { key: 'product', header: t('orders.product'), cell: (i) => `${i.product.code} · ${i.product.name}` },
                { key: 'cost', header: t('supply.cost'), align: 'right', cell: (i) => (i.route.cost_before !== null && i.route.cost_before !== i.cost ? `${price(i.route.cost_before)} → ${price(i.cost)}` : price(i.cost)) },
                { key: 'gold', header: 'Gold', align: 'right', cell: (i) => price(i.prices.gold) },
                { key: 'platinum', header: 'Platinum', align: 'right', cell: (i) => price(i.prices.platinum) },
                { key: 'diamond', header: 'Diamond', align: 'right', cell: (i) => price(i.prices.diamond) },
                {
                  key: 'notes', header: t('supply.notes'),
                  cell: (i) => (
                    <Group gap={4}>
                      {i.error ? <Badge color="red">{t(`supply.problem_${i.error}`)}</Badge> : null}
                      {i.warnings.map((w) => <Badge key={w} color="yellow" variant="light">{t(`supply.warning_${w}`)}</Badge>)}
                    </Group>
                  ),
                },
              ]}
            />
            <Group mt="sm">
              <Button disabled={blocked || apply.isSuccess} loading={apply.isPending} onClick={() => apply.mutate({ input: input(), token: plan.preview_token })}>{t('supply.apply')}</Button>
              {blocked ? <Text size="sm" c="red">{t('supply.blocked')}</Text> : null}
            </Group>
            {apply.error ? <ErrorAlert error={apply.error} /> : null}
            {apply.isSuccess ? <Alert color="green" role="status" mt="sm">{t('supply.applied', { count: apply.data.items.length })}</Alert> : null}
          </Card>
        ) : null}
        <MarginRulesCard />
      </Stack>
    </>
  );
}
