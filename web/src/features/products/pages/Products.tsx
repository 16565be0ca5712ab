import { Accordion, Badge, Card, Group, NativeSelect, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { contractCall } from '../../../shared/api/client.js';
import { DataTable } from '../../../shared/table/DataTable.js';
import { CsvLink, queryString } from '../../../shared/ui/CsvLink.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../shared/ui/QueryState.js';
import { useMoney } from '../../../shared/ui/useCurrency.js';
import { useUrlFilters } from '../../../shared/ui/useFilters.js';

/** GET /dashboard/v1/products and /categories (web contract; shapes as API v1). */
interface Product { code: string; name: string; category: string; category_slug: string; price: number; status: string }
interface FormField { name: string; label: string; role: string; type: string; required: boolean; placeholder?: string; options?: { value: string; label: string }[] }
interface Category { slug: string; name: string; type: string; form: FormField[] }

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
  const { filters, apply } = useUrlFilters(['q', 'category_slug'] as const);
  const qs = queryString(filters);
  const products = useQuery({ queryKey: ['products', qs], queryFn: () => contractCall<Product[]>('GET', `/dashboard/v1/products${qs}`), placeholderData: (p) => p });
  const categories = useQuery({ queryKey: ['categories'], queryFn: () => contractCall<Category[]>('GET', '/dashboard/v1/categories') });
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
                data={[{ value: '', label: t('all') }, ...(categories.data ?? []).map((c) => ({ value: c.slug, label: c.name }))]}
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
            rows={products.data ?? []}
            rowKey={(p) => p.code}
            columns={[
              { key: 'code', header: t('products.code'), cell: (p) => p.code },
              { key: 'name', header: t('products.name'), cell: (p) => p.name },
              { key: 'category', header: t('products.category'), cell: (p) => p.category },
              { key: 'price', header: t('products.price'), cell: (p) => money(p.price), align: 'right' },
              { key: 'status', header: t('products.status'), cell: (p) => <Badge variant="light" color={p.status === 'active' ? 'green' : 'gray'}>{p.status === 'active' || p.status === 'inactive' ? t(`products.statuses.${p.status}`) : p.status}</Badge> },
            ]}
          />
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="xs">{t('products.forms')}</Title>
          <Text size="sm" mb="sm">{t('products.formsIntro')}</Text>
          {categories.error ? <ErrorAlert error={categories.error} /> : null}
          <Accordion variant="separated">
            {(categories.data ?? []).map((c) => (
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
