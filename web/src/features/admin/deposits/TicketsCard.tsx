import { Alert, Button, Card, Group, Modal, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../shared/api/admin.js';
import { call, callData } from '../../../shared/api/client.js';
import type { components } from '../../../shared/api/generated/admin.js';
import { formatDateTime } from '../../../shared/format/dates.js';
import { useApiForm } from '../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../shared/table/DataTable.js';
import { IfCan } from '../auth/Permitted.js';
import { useAdminMoney } from '../ui/useAdminMoney.js';
import { DepositBadge } from './DepositState.js';

type Deposit = components['schemas']['Deposit'];
const STATES = ['open', 'review', 'paid', 'expired', 'cancelled'];

/** Bank tickets by state, with the mark-paid dialog (also the confirmation of a ticket in review). */
export function TicketsCard() {
  const { t, i18n } = useTranslation();
  const money = useAdminMoney();
  const qc = useQueryClient();
  const [state, setState] = useState('open,review');
  const [page, setPage] = useState(1);
  const [paying, setPaying] = useState<Deposit | null>(null);
  const [reference, setReference] = useState('');
  const list = useQuery({
    queryKey: ['admin', 'deposits', state, page],
    queryFn: () => call(adminApi.GET('/deposits', { params: { query: { channel: 'bank', page: String(page), limit: '20', ...(state ? { state } : {}) } } })),
  });
  const pay = useApiForm(['reference'], {
    mutationFn: (d: Deposit) => callData(adminApi.POST('/deposits/{id}/mark-paid', { params: { path: { id: d.id } }, body: reference.trim() ? { reference } : {} })),
    onSuccess: () => { setPaying(null); setReference(''); void qc.invalidateQueries({ queryKey: ['admin'] }); },
  });
  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">{t('deposits.tickets')}</Title>
        <NativeSelect aria-label={t('deposits.state')} value={state} onChange={(e) => { setState(e.currentTarget.value); setPage(1); }}
          data={[{ value: 'open,review', label: `${t('deposits.open')} + ${t('deposits.review')}` }, { value: '', label: t('deposits.all') }, ...STATES.map((s) => ({ value: s, label: t(`deposits.states.${s}`) }))]} />
      </Group>
      <DataTable
        caption={t('deposits.tickets')}
        rows={list.data?.data.deposits ?? []}
        rowKey={(r) => r.id}
        meta={list.data?.meta}
        onPage={setPage}
        columns={[
          { key: 'id', header: 'ID', cell: (r) => r.id },
          { key: 'state', header: t('deposits.state'), cell: (r) => <DepositBadge state={r.state} label={t(`deposits.states.${r.state}`, { defaultValue: r.state })} /> },
          { key: 'reseller', header: t('deposits.reseller'), cell: (r) => r.reseller_id.slice(0, 8) },
          { key: 'payable', header: t('deposits.payable'), cell: (r) => money(r.payable), align: 'right' },
          { key: 'amount', header: t('deposits.amount'), cell: (r) => money(r.amount), align: 'right' },
          { key: 'account', header: t('deposits.account'), cell: (r) => (r.bank_account ? `${r.bank_account.bank} ${r.bank_account.number}` : '—') },
          { key: 'sender', header: t('deposits.sender'), cell: (r) => r.sender_name ?? '' },
          { key: 'expires', header: t('deposits.expires'), cell: (r) => formatDateTime(r.expires_at, i18n.language) },
          {
            key: 'act', header: t('deposits.actions'),
            cell: (r) => (['open', 'review', 'expired'].includes(r.state) ? <IfCan permission="deposits.manage"><Button size="xs" variant="light" onClick={() => { pay.reset(); setPaying(r); }}>{t('deposits.markPaid')}</Button></IfCan> : null),
          },
        ]}
      />
      <Modal opened={!!paying} onClose={() => setPaying(null)} title={t('deposits.markPaid')}>
        {paying ? (
          <form noValidate onSubmit={(e) => { e.preventDefault(); pay.mutate(paying); }}>
            <Stack>
              <Text fw={600}>{t('deposits.markPaidText', { amount: money(paying.amount), id: paying.id })}</Text>
              <TextInput label={t('deposits.reference')} description={t('deposits.referenceHint')} value={reference} onChange={(e) => setReference(e.currentTarget.value)} error={pay.errors.fields.reference} data-autofocus />
              {pay.errors.general ? <Alert color="red" role="alert">{pay.errors.general}</Alert> : null}
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setPaying(null)}>{t('cancel')}</Button>
                <Button type="submit" loading={pay.isPending}>{t('deposits.confirm')}</Button>
              </Group>
            </Stack>
          </form>
        ) : null}
      </Modal>
    </Card>
  );
}
