import { Anchor, Button, Card, Group, NativeSelect, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { adminApi } from '../../../../shared/api/admin.js';
import { call } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { formValues } from '../../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { usePagedList, type PageQuery } from '../../../../shared/table/usePagedList.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { ACTION_CODES, TARGET_KINDS } from '../i18n.js';
import { targetPath } from '../targets.js';

const KEYS = ['action', 'target_kind', 'target_id', 'operator_id'] as const;
const fetchAudit = (query: PageQuery) => call(adminApi.GET('/audit', { params: { query } }));

/** Who did what to which target, newest first; each entry links to what it changed. */
export default function Audit() {
  const { t, i18n } = useTranslation();
  const { filters, apply, setPage, list } = usePagedList(KEYS, ['admin', 'audit'], fetchAudit, { limit: 25 });
  return (
    <>
      <PageTitle>{t('audit.title')}</PageTitle>
      <Card withBorder mb="md">
        <form key={JSON.stringify(filters)} onSubmit={(e) => apply(formValues(e))}>
          <Group align="flex-end" wrap="wrap">
            <NativeSelect name="action" label={t('audit.action')} defaultValue={filters.action} w={240}
              data={[{ value: '', label: t('all') }, ...ACTION_CODES.map((a) => ({ value: a, label: t(`audit.actions.${a}`) }))]} />
            <NativeSelect name="target_kind" label={t('audit.targetKind')} defaultValue={filters.target_kind} w={160}
              data={[{ value: '', label: t('all') }, ...TARGET_KINDS.map((k) => ({ value: k, label: t(`audit.kinds.${k}`) }))]} />
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
            {
              key: 'who', header: t('audit.operator'),
              // Four-eyes: the requester, and the second operator who approved it.
              cell: (e) => (e.approved_by ? <>{e.operator_email ?? e.operator_id}<Text size="xs" c="dimmed">{t('audit.approvedBy', { who: e.approved_by_email ?? e.approved_by })}</Text></> : e.operator_email ?? e.operator_id),
            },
            { key: 'action', header: t('audit.action'), cell: (e) => <Text size="sm" title={e.action}>{t(`audit.actions.${e.action}`, { defaultValue: e.action })}</Text> },
            {
              key: 'target', header: t('audit.target'),
              cell: (e) => {
                const to = targetPath(e.target_kind, e.target_id);
                const label = `${t(`audit.kinds.${e.target_kind}`, { defaultValue: e.target_kind })} ${e.target_label ?? e.target_id}`;
                return to ? <Anchor component={Link} to={to} size="sm" title={e.target_id}>{label}</Anchor> : <Text size="sm" title={e.target_id}>{label}</Text>;
              },
            },
            { key: 'note', header: t('note'), cell: (e) => e.note ?? '' },
          ]}
        />
      </Card>
    </>
  );
}
