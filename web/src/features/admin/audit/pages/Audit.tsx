import { Anchor, Button, Card, Code, Group, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { adminApi } from '../../../../shared/api/admin.js';
import { call } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { formValues } from '../../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useUrlFilters } from '../../../../shared/ui/useFilters.js';
import { targetPath } from '../targets.js';

const KEYS = ['action', 'target_kind', 'target_id', 'operator_id'] as const;

/** Who did what to which target, newest first; each entry links to what it changed. */
export default function Audit() {
  const { t, i18n } = useTranslation();
  const { filters, page, apply, setPage } = useUrlFilters(KEYS);
  const query = Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) as Partial<Record<(typeof KEYS)[number], string>>;
  const list = useQuery({
    queryKey: ['admin', 'audit', query, page],
    queryFn: () => call(adminApi.GET('/audit', { params: { query: { ...query, page: String(page), limit: "25" } } })),
  });
  return (
    <>
      <PageTitle>{t('audit.title')}</PageTitle>
      <Card withBorder mb="md">
        <form key={JSON.stringify(filters)} onSubmit={(e) => apply(formValues(e))}>
          <Group align="flex-end" wrap="wrap">
            <TextInput name="action" label={t('audit.action')} placeholder="wallet.credit" defaultValue={filters.action} w={180} />
            <TextInput name="target_kind" label={t('audit.targetKind')} placeholder="reseller" defaultValue={filters.target_kind} w={150} />
            <TextInput name="target_id" label={t('audit.targetId')} defaultValue={filters.target_id} w={200} />
            <TextInput name="operator_id" label={t('audit.operator')} defaultValue={filters.operator_id} w={200} />
            <Button type="submit">{t('search')}</Button>
          </Group>
        </form>
      </Card>
      {list.error ? <ErrorAlert error={list.error} /> : null}
      <Card withBorder>
        <DataTable
          caption={t('audit.title')}
          rows={list.data?.data.entries ?? []}
          rowKey={(e) => e.id}
          meta={list.data?.meta as never}
          onPage={setPage}
          columns={[
            { key: 'at', header: t('audit.when'), cell: (e) => formatDateTime(e.created_at, i18n.language) },
            { key: 'who', header: t('audit.operator'), cell: (e) => e.operator_email ?? e.operator_id },
            { key: 'action', header: t('audit.action'), cell: (e) => <Code>{e.action}</Code> },
            {
              key: 'target', header: t('audit.target'),
              cell: (e) => {
                const to = targetPath(e.target_kind, e.target_id);
                const label = `${e.target_kind} ${e.target_id}`;
                return to ? <Anchor component={Link} to={to} size="sm">{label}</Anchor> : <Text size="sm">{label}</Text>;
              },
            },
            { key: 'note', header: t('note'), cell: (e) => e.note ?? '' },
          ]}
        />
      </Card>
    </>
  );
}
