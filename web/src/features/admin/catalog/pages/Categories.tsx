import { Alert, Button, Card, Checkbox, Group, NativeSelect, Stack, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formValues, useApiForm } from '../../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { useCan } from '../../auth/hooks.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { cleanForm, FormEditor, type Field } from '../FormEditor.js';

/** Categories (games and vouchers) and their order forms. */
export default function Categories() {
  const { t } = useTranslation();
  const may = useCan()('catalog.manage');
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['admin', 'categories'], queryFn: () => callData(adminApi.GET('/categories')) });
  const [editing, setEditing] = useState<{ slug: string; name: string; checker: boolean; form: Field[] } | null>(null);
  // ?edit=<slug> (the audit log's link to a category) opens that category's editor.
  const [params, setParams] = useSearchParams();
  const wanted = params.get('edit');
  const close = () => {
    setEditing(null);
    if (wanted) setParams({}, { replace: true });
  };
  useEffect(() => {
    const c = wanted ? list.data?.categories.find((x) => x.slug === wanted) : undefined;
    if (c) setEditing({ slug: c.slug, name: c.name, checker: c.checker_enabled, form: c.form as Field[] });
  }, [wanted, list.data]);
  const done = () => void qc.invalidateQueries({ queryKey: ['admin', 'categories'] });
  const save = useApiForm(['name', 'form'], {
    mutationFn: (e: NonNullable<typeof editing>) => callData(adminApi.PATCH('/categories/{slug}', { params: { path: { slug: e.slug } }, body: { name: e.name, checker_enabled: e.checker, form: cleanForm(e.form) } })),
    onSuccess: () => {
      close();
      done();
    },
  });
  const add = useApiForm(['slug', 'name', 'type'], {
    mutationFn: (v: Record<string, string>) => callData(adminApi.POST('/categories', { body: { slug: v.slug ?? '', name: v.name ?? '', type: (v.type ?? 'game') as 'game' | 'voucher' } })),
    onSuccess: done,
  });
  return (
    <>
      <PageTitle>{t('catalog.categories')}</PageTitle>
      <Stack>
        {list.error ? <ErrorAlert error={list.error} /> : null}
        <Card withBorder>
          <DataTable
            caption={t('catalog.categories')}
            rows={list.data?.categories ?? []}
            rowKey={(c) => c.slug}
            columns={[
              { key: 'slug', header: t('catalog.slug'), cell: (c) => c.slug },
              { key: 'name', header: t('catalog.name'), cell: (c) => c.name },
              { key: 'type', header: t('catalog.type'), cell: (c) => t(`catalog.categoryTypes.${c.type}`) },
              { key: 'fields', header: t('catalog.fields'), cell: (c) => c.form.map((f) => `${f.name} (${t(`catalog.roles.${f.role}`)})`).join(', ') || '—' },
              { key: 'checker', header: t('catalog.checker'), cell: (c) => (c.checker_enabled ? t('yes') : t('no')) },
              { key: 'products', header: t('catalog.products'), align: 'right', cell: (c) => c.product_count },
              { key: 'x', header: t('actions'), align: 'right', cell: (c) => !may ? null : <Button size="xs" variant="light" aria-label={`${t('catalog.edit')} ${c.name}`} onClick={() => { save.reset(); setEditing({ slug: c.slug, name: c.name, checker: c.checker_enabled, form: c.form as Field[] }); }}>{t('catalog.edit')}</Button> },
            ]}
          />
        </Card>
        {editing ? (
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">{t('catalog.editing', { slug: editing.slug })}</Title>
            <Stack>
              <TextInput label={t('catalog.name')} value={editing.name} onChange={(e) => setEditing({ ...editing, name: e.currentTarget.value })} error={save.errors.fields.name} />
              <Checkbox label={t('catalog.checker')} checked={editing.checker} onChange={(e) => setEditing({ ...editing, checker: e.currentTarget.checked })} />
              <FormEditor value={editing.form} onChange={(form) => setEditing({ ...editing, form })} />
              {save.errors.fields.form || save.errors.general ? <Alert color="red" role="alert">{save.errors.fields.form ?? save.errors.general}</Alert> : null}
              <Group>
                <Button onClick={() => save.mutate(editing)} loading={save.isPending}>{t('save')}</Button>
                <Button variant="default" onClick={close}>{t('cancel')}</Button>
              </Group>
            </Stack>
          </Card>
        ) : null}
        {may ? <Card withBorder>
          <Title order={2} size="h4" mb="sm">{t('catalog.addCategory')}</Title>
          <form noValidate onSubmit={(e) => add.mutate(formValues(e))}>
            <Group align="flex-start" wrap="wrap">
              <TextInput name="slug" label={t('catalog.slug')} error={add.errors.fields.slug} />
              <TextInput name="name" label={t('catalog.name')} error={add.errors.fields.name} />
              <NativeSelect name="type" label={t('catalog.type')} data={(['game', 'voucher'] as const).map((x) => ({ value: x, label: t(`catalog.categoryTypes.${x}`) }))} />
              <Button type="submit" mt={25} loading={add.isPending}>{t('catalog.addCategory')}</Button>
            </Group>
            {add.errors.general ? <Alert color="red" role="alert" mt="sm">{add.errors.general}</Alert> : null}
          </form>
        </Card> : null}
      </Stack>
    </>
  );
}
