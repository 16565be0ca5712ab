import { Alert, Badge, Button, Card, Group, NativeSelect, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formValues, useApiForm } from '../../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { useCan } from '../../auth/hooks.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';

/** Every product, disabled ones too; add one, enable or disable it. */
export default function Products() {
  const { t } = useTranslation();
  const may = useCan()('catalog.manage');
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['admin', 'products'], queryFn: () => callData(adminApi.GET('/products')) });
  const categories = useQuery({ queryKey: ['admin', 'categories'], queryFn: () => callData(adminApi.GET('/categories')) });
  const done = () => void qc.invalidateQueries({ queryKey: ['admin'] });
  const toggle = useMutation({
    mutationFn: (v: { code: string; enabled: boolean }) => callData(adminApi.PATCH('/products/{code}', { params: { path: { code: v.code } }, body: { enabled: v.enabled } })),
    onSuccess: done,
  });
  const add = useApiForm(['code', 'name', 'category_slug'], {
    mutationFn: (v: Record<string, string>) => callData(adminApi.POST('/products', { body: { code: v.code ?? '', name: v.name ?? '', category_slug: v.category_slug ?? '', kind: (v.kind ?? 'instant') as 'instant' | 'voucher' } })),
    onSuccess: done,
  });
  return (
    <>
      <PageTitle>{t('catalog.products')}</PageTitle>
      <Stack>
        {[list.error, toggle.error].map((e, i) => (e ? <ErrorAlert key={i} error={e} /> : null))}
        <Card withBorder>
          <DataTable
            caption={t('catalog.products')}
            rows={list.data?.products ?? []}
            rowKey={(p) => p.code}
            columns={[
              { key: 'code', header: t('catalog.code'), cell: (p) => p.code },
              { key: 'name', header: t('catalog.name'), cell: (p) => p.name },
              { key: 'cat', header: t('catalog.category'), cell: (p) => p.category_name },
              { key: 'kind', header: t('catalog.kind'), cell: (p) => t(`catalog.productKinds.${p.kind}`) },
              { key: 'routes', header: t('supply.routes'), align: 'right', cell: (p) => p.route_count },
              { key: 'state', header: t('resellers.status'), cell: (p) => (p.enabled ? <Badge color="green" variant="light">{t('catalog.enabled')}</Badge> : <Badge color="gray" variant="light">{t('catalog.disabled')}</Badge>) },
              { key: 'x', header: t('actions'), align: 'right', cell: (p) => !may ? null : <Button size="xs" variant="light" aria-label={`${p.enabled ? t('supply.disable') : t('supply.enable')} ${p.code}`} onClick={() => toggle.mutate({ code: p.code, enabled: !p.enabled })}>{p.enabled ? t('supply.disable') : t('supply.enable')}</Button> },
            ]}
          />
        </Card>
        {may ? <Card withBorder>
          <Title order={2} size="h4" mb="sm">{t('catalog.addProduct')}</Title>
          <form noValidate onSubmit={(e) => add.mutate(formValues(e))}>
            <Group align="flex-start" wrap="wrap">
              <TextInput name="code" label={t('catalog.code')} error={add.errors.fields.code} />
              <TextInput name="name" label={t('catalog.name')} error={add.errors.fields.name} />
              <NativeSelect name="category_slug" label={t('catalog.category')} data={(categories.data?.categories ?? []).map((c) => ({ value: c.slug, label: c.name }))} error={add.errors.fields.category_slug} />
              <NativeSelect name="kind" label={t('catalog.kind')} data={(['instant', 'voucher'] as const).map((x) => ({ value: x, label: t(`catalog.productKinds.${x}`) }))} />
              <Button type="submit" mt={25} loading={add.isPending}>{t('catalog.addProduct')}</Button>
            </Group>
            {add.errors.general ? <Alert color="red" role="alert" mt="sm">{add.errors.general}</Alert> : null}
          </form>
        </Card> : null}
      </Stack>
    </>
  );
}
