import { Alert, Button, Card, Group, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { useApiForm } from '../../../../shared/forms/useApiForm.js';
import { useLoadedForm } from '../../../../shared/forms/useLoadedForm.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { useCan } from '../../auth/hooks.js';
import { ErrorAlert, QueryState } from '../../../../shared/ui/QueryState.js';
import { useAdminMoney } from '../../ui/useAdminMoney.js';

const TIERS = ['gold', 'platinum', 'diamond'] as const;
type Tier = (typeof TIERS)[number];

/** One catalog's prices as a grid: a row per product, a column per tier; saved all or nothing. */
export default function CatalogPrices() {
  const { catalogId = '' } = useParams();
  const { t } = useTranslation();
  const may = useCan()('catalog.manage');
  const money = useAdminMoney();
  const qc = useQueryClient();
  const key = ['admin', 'catalog', catalogId];
  const catalog = useQuery({ queryKey: key, queryFn: () => callData(adminApi.GET('/catalogs/{id}', { params: { path: { id: catalogId } } })) });
  const products = useQuery({ queryKey: ['admin', 'products'], queryFn: () => callData(adminApi.GET('/products')) });
  // The grid's cells by `product|tier`: the saved prices, then what the operator typed.
  const form = useLoadedForm<Record<string, string>>(catalog.data && Object.fromEntries(catalog.data.prices.map((p) => [`${p.product_code}|${p.tier}`, String(p.price)])));
  const edits = form.edits;
  const save = useApiForm(['prices'], {
    mutationFn: () => callData(adminApi.PUT('/catalogs/{id}/prices', {
      params: { path: { id: catalogId } },
      body: {
        prices: Object.entries(edits).map(([k, v]) => {
          const [product_code, tier] = k.split('|') as [string, Tier];
          return { product_code, tier, price: (v ?? '').trim() === '' ? null : Number(v) };
        }),
      },
    })),
    onSuccess: (c) => {
      qc.setQueryData(key, c);
      form.forget();
      void qc.invalidateQueries({ queryKey: ['admin', 'catalogs'] });
    },
  });
  return (
    <QueryState query={catalog}>
      {(c) => (
          <>
            <PageTitle>{c.name}</PageTitle>
            <Card withBorder>
              <Stack>
                <Text size="sm">{t('catalog.gridIntro', { currency: money.currency })}</Text>
                {products.error ? <ErrorAlert error={products.error} /> : null}
                <ScrollArea type="auto">
                  <Table miw={600}>
                    <Table.Caption className="visually-hidden">{t('catalog.prices')}</Table.Caption>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th scope="col">{t('catalog.code')}</Table.Th>
                        <Table.Th scope="col">{t('catalog.name')}</Table.Th>
                        {TIERS.map((tier) => <Table.Th key={tier} scope="col">{t(`resellers.tiers.${tier}`)}</Table.Th>)}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {(products.data?.products ?? []).map((p) => (
                        <Table.Tr key={p.code}>
                          <Table.Td>{p.code}</Table.Td>
                          <Table.Td>{p.name}</Table.Td>
                          {TIERS.map((tier) => {
                            const k = `${p.code}|${tier}`;
                            return (
                              <Table.Td key={tier}>
                                <TextInput
                                  size="xs"
                                  w={120}
                                  inputMode="decimal"
                                  aria-label={`${p.code} ${t(`resellers.tiers.${tier}`)}`}
                                  {...form.text(k)}
                                  styles={k in edits ? { input: { borderColor: 'var(--mantine-color-blue-6)' } } : undefined}
                                />
                              </Table.Td>
                            );
                          })}
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </ScrollArea>
                {save.errors.fields.prices || save.errors.general ? <Alert color="red" role="alert">{save.errors.fields.prices ?? save.errors.general}</Alert> : null}
                {save.isSuccess ? <Alert color="green" role="status">{t('catalog.saved')}</Alert> : null}
                {may ? <Group>
                  <Button onClick={() => save.mutate(undefined)} disabled={Object.keys(edits).length === 0} loading={save.isPending}>{t('catalog.savePrices', { count: Object.keys(edits).length })}</Button>
                  <Button variant="default" onClick={form.forget} disabled={Object.keys(edits).length === 0}>{t('reset')}</Button>
                </Group> : null}
              </Stack>
            </Card>
          </>
      )}
    </QueryState>
  );
}
