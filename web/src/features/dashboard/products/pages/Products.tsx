import { Accordion, Badge, Card, Group, NativeSelect, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call, callData } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { CsvLink, queryString } from '../../../../shared/ui/CsvLink.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useMoney } from '../../../../shared/ui/useCurrency.js';
import { useUrlFilters } from '../../../../shared/ui/useFilters.js';

type Category = Awaited<ReturnType<typeof fetchCategories>>['categories'][number];
const fetchCategories = () => callData(dashboardApi.GET('/categories'));

function FormPreview(props: { category: Category }) {
  const { t } = useTranslation();
  if (props.category.form.length === 0) return <Text size="sm" c="dimmed">{t('products.noForm')}</Text>;
  return (
    <Card withBorder maw={420} aria-label={t('products.preview', { name: props.category.name })} component="form" onSubmit={(e) => e.preventDefault()}>
      <Stack gap="sm">
        {props.category.form.map((f) =>
          f.options ? (
            <Select key={f.name} label={f.label} placeholder={f.placeholder} required={f.required} data={f.options.map((o) => ({ value: o.value, label: o.label }))} />
          ) : (
            <TextInput key={f.name} label={f.label} placeholder={f.placeholder} required={f.required} inputMode={f.type === 'number' ? 'numeric' : undefined} />
          ),
        )}
      </Stack>
    </Card>
  );
}

export default function Products() {
  const { t } = useTranslation();
  const money = useMoney();
  const { filters, page, apply, setPage } = useUrlFilters(['q', 'category_slug'] as const);
  const qs = queryString(filters);
  const query = Object.fromEntries(Object.entries({ ...filters, page: String(page), limit: '50' }).filter(([, v]) => v));
  const products = useQuery({ queryKey: ['products', query], queryFn: () => call(dashboardApi.GET('/products', { params: { query } })), placeholderData: (p) => p });
  const categories = useQuery({ queryKey: ['categories'], queryFn: fetchCategories });
  return (
    <>
      <PageTitle actions={<CsvLink href={`/dashboard/v1/products/export.csv${qs}`} />}>{t('products.title')}</PageTitle>
      <Stack>
        <Card withBorder>
          <form key={qs} onSubmit={(e) => { e.preventDefault(); const f = new FormData(e.currentTarget); apply({ q: String(f.get('q') ?? ''), category_slug: String(f.get('category_slug') ?? '') }); }}>
            <Group align="flex-end">
              <TextInput name="q" type="search" label={t('products.search')} defaultValue={filters.q} w={280} maw="100%" />
              <NativeSelect
                name="category_slug"
                label={t('products.category')}
                defaultValue={filters.category_slug}
                data={[{ value: '', label: t('all') }, ...(categories.data?.categories ?? []).map((c) => ({ value: c.slug, label: c.name }))]}
                onChange={(e) => e.currentTarget.form?.requestSubmit()}
              />
              <button type="submit" className="visually-hidden">{t('search')}</button>
            </Group>
          </form>
        </Card>
        {products.error ? <ErrorAlert error={products.error} /> : null}
        <Card withBorder>
          <DataTable
            caption={t('products.title')}
            rows={products.data?.data.products ?? []}
            rowKey={(p) => p.code}
            meta={products.data?.meta}
            onPage={setPage}
            columns={[
              { key: 'code', header: t('products.code'), cell: (p) => p.code },
              { key: 'name', header: t('products.name'), cell: (p) => p.name },
              { key: 'category', header: t('products.category'), cell: (p) => p.category },
              { key: 'price', header: t('products.price'), cell: (p) => money(p.price), align: 'right' },
              { key: 'status', header: t('products.status'), cell: (p) => <Badge variant="light" color={p.status === 'active' ? 'green' : 'gray'}>{t(`products.statuses.${p.status}`)}</Badge> },
            ]}
          />
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="xs">{t('products.forms')}</Title>
          <Text size="sm" mb="sm">{t('products.formsIntro')}</Text>
          {categories.error ? <ErrorAlert error={categories.error} /> : null}
          <Accordion variant="separated">
            {(categories.data?.categories ?? []).map((c) => (
              <Accordion.Item key={c.slug} value={c.slug}>
                <Accordion.Control>{c.name}</Accordion.Control>
                <Accordion.Panel><FormPreview category={c} /></Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        </Card>
      </Stack>
    </>
  );
}
