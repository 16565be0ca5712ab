import { Anchor, Button, Card, Group, NativeSelect, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { formValues } from '../../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { usePagedList } from '../../../../shared/table/usePagedList.js';
import { StatusBadge } from '../../ui/StatusBadge.js';
import { useAdminMoney } from '../../ui/useAdminMoney.js';
import { fetchResellers, TIERS } from '../hooks.js';

export default function Resellers() {
  const { t, i18n } = useTranslation();
  const money = useAdminMoney();
  const { filters, apply, setPage, list } = usePagedList(['q', 'status', 'tier'] as const, ['admin', 'resellers'], fetchResellers);
  return (
    <>
      <PageTitle>{t('resellers.title')}</PageTitle>
      <Card withBorder mb="md">
        <form key={JSON.stringify(filters)} onSubmit={(e) => apply(formValues(e))}>
          <Group align="flex-end" wrap="wrap">
            <TextInput name="q" label={t('resellers.search')} defaultValue={filters.q} w={260} />
            <NativeSelect name="status" label={t('resellers.status')} defaultValue={filters.status}
              data={[{ value: '', label: t('all') }, ...(['pending', 'active', 'suspended'] as const).map((s) => ({ value: s, label: t(`resellers.statuses.${s}`) }))]} />
            <NativeSelect name="tier" label={t('resellers.tier')} defaultValue={filters.tier}
              data={[{ value: '', label: t('all') }, ...TIERS.map((s) => ({ value: s, label: t(`resellers.tiers.${s}`) }))]} />
            <Button type="submit">{t('search')}</Button>
          </Group>
        </form>
      </Card>
      {list.error ? <ErrorAlert error={list.error} /> : null}
      <Card withBorder>
        <DataTable
          caption={t('resellers.title')}
          rows={list.data?.data.resellers ?? []}
          rowKey={(r) => r.id}
          meta={list.data?.meta as never}
          onPage={setPage}
          columns={[
            { key: 'name', header: t('resellers.name'), cell: (r) => <Anchor component={Link} to={`/resellers/${r.id}`}>{r.name}</Anchor> },
            { key: 'email', header: t('resellers.email'), cell: (r) => r.email },
            { key: 'status', header: t('resellers.status'), cell: (r) => <StatusBadge status={r.status} /> },
            { key: 'tier', header: t('resellers.tier'), cell: (r) => t(`resellers.tiers.${r.tier}`) },
            { key: 'balance', header: t('resellers.balance'), align: 'right', cell: (r) => money(r.balance) },
            { key: 'created', header: t('resellers.created'), cell: (r) => formatDateTime(r.created_at, i18n.language) },
          ]}
        />
      </Card>
    </>
  );
}
