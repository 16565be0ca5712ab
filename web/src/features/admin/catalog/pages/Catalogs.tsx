import { Anchor, Button, Card, Group, Stack, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { formValues, useApiForm } from '../../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { useCan } from '../../auth/hooks.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';

/** Catalogs (price lists), each assigned to resellers from the reseller's page. */
export default function Catalogs() {
  const { t, i18n } = useTranslation();
  const may = useCan()('catalog.manage');
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['admin', 'catalogs'], queryFn: () => callData(adminApi.GET('/catalogs')) });
  const add = useApiForm(['name'], {
    mutationFn: (name: string) => callData(adminApi.POST('/catalogs', { body: { name } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['admin', 'catalogs'] }),
  });
  return (
    <>
      <PageTitle>{t('catalog.catalogs')}</PageTitle>
      <Stack>
        {list.error ? <ErrorAlert error={list.error} /> : null}
        <Card withBorder>
          <DataTable
            caption={t('catalog.catalogs')}
            rows={list.data?.catalogs ?? []}
            rowKey={(c) => c.id}
            columns={[
              { key: 'name', header: t('catalog.name'), cell: (c) => <Anchor component={Link} to={`/catalog/catalogs/${c.id}`}>{c.name}</Anchor> },
              { key: 'prices', header: t('catalog.prices'), align: 'right', cell: (c) => c.price_count },
              { key: 'resellers', header: t('nav.resellers'), align: 'right', cell: (c) => c.reseller_count },
              { key: 'at', header: t('operators.added'), cell: (c) => formatDateTime(c.created_at, i18n.language) },
            ]}
          />
        </Card>
        {may ? <Card withBorder>
          <Title order={2} size="h4" mb="sm">{t('catalog.addCatalog')}</Title>
          <form noValidate onSubmit={(e) => add.mutate(formValues(e).name ?? '')}>
            <Group align="flex-start">
              <TextInput name="name" label={t('catalog.name')} error={add.errors.fields.name} />
              <Button type="submit" mt={25} loading={add.isPending}>{t('catalog.addCatalog')}</Button>
            </Group>
          </form>
        </Card> : null}
      </Stack>
    </>
  );
}
