import { Alert, Button, Card, Group, Modal, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { call, callData } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { useApiForm } from '../../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { IfCan } from '../../auth/Permitted.js';
import { newIdempotencyKey, useAdminMoney } from '../../ui/useAdminMoney.js';
import type { Reseller } from './types.js';
import { isApprovalRequest, SentForApproval } from '../../approvals/SentForApproval.js';

type Kind = 'credit' | 'debit';
interface Pending { kind: Kind; amount: number; note: string; key: string }

/**
 * Balance, credit/debit and the ledger. A change needs a note and a second look: the
 * dialog repeats the amount in the currency before anything is sent, and the one
 * Idempotency-Key of the confirmed action makes a retried click harmless.
 */
export function WalletCard({ reseller: r }: { reseller: Reseller }) {
  const { t, i18n } = useTranslation();
  const money = useAdminMoney();
  const qc = useQueryClient();
  const [kind, setKind] = useState<Kind>('credit');
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  const [page, setPage] = useState(1);
  const history = useQuery({
    queryKey: ['admin', 'reseller', r.id, 'wallet', page],
    queryFn: () => call(adminApi.GET('/resellers/{id}/wallet-history', { params: { path: { id: r.id }, query: { page: String(page), limit: '10' } } })),
  });
  const send = useApiForm(['amount', 'note'], {
    mutationFn: (p: Pending) => callData(adminApi.POST(p.kind === 'credit' ? '/resellers/{id}/wallet/credit' : '/resellers/{id}/wallet/debit', {
      params: { path: { id: r.id } }, body: { amount: p.amount, note: p.note }, headers: { 'Idempotency-Key': p.key },
    })),
    onSuccess: () => {
      setAmount('');
      setNote('');
      void qc.invalidateQueries({ queryKey: ['admin'] });
    },
    onSettled: () => setPending(null),
  });
  const review = (e: React.FormEvent) => {
    e.preventDefault();
    send.reset();
    // Whatever was typed goes to the API, which judges it (and answers by the field).
    const n = amount.trim() === '' ? Number.NaN : Number(amount.replace(/\s/g, ''));
    setPending({ kind, amount: n, note, key: newIdempotencyKey() });
  };
  const confirmable = pending && Number.isFinite(pending.amount) && pending.amount > 0 && pending.note.trim() !== '';
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">{t('resellers.detail.wallet')}</Title>
      <Text size="xl" fw={700} mb="sm" data-testid="balance">{money(r.balance)}</Text>
      <IfCan permission="wallet.adjust">
      <form noValidate onSubmit={review}>
        <Stack gap="xs">
          <SegmentedControl
            value={kind}
            onChange={(v) => setKind(v as Kind)}
            data={[{ value: 'credit', label: t('resellers.detail.credit') }, { value: 'debit', label: t('resellers.detail.debit') }]}
            aria-label={t('resellers.detail.type')}
          />
          <TextInput label={t('resellers.detail.amount', { currency: money.currency })} name="amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.currentTarget.value)} error={send.errors.fields.amount} />
          <TextInput label={t('note')} name="note" description={t('resellers.detail.noteHint')} value={note} onChange={(e) => setNote(e.currentTarget.value)} error={send.errors.fields.note} />
          {send.errors.general ? <Alert color="red" role="alert">{send.errors.general}</Alert> : null}
          {send.isSuccess && isApprovalRequest(send.data) ? <SentForApproval /> : null}
          {send.isSuccess && !isApprovalRequest(send.data) ? <Alert color="green" role="status">{t('resellers.detail.walletDone', { balance: money(send.data.balance) })}</Alert> : null}
          <Group><Button type="submit">{kind === 'credit' ? t('resellers.detail.credit') : t('resellers.detail.debit')}</Button></Group>
        </Stack>
      </form>
      <Modal opened={!!pending} onClose={() => setPending(null)} title={pending?.kind === 'debit' ? t('resellers.detail.debit') : t('resellers.detail.credit')}>
        {pending ? (
          <Stack>
            <Text fw={600}>
              {confirmable
                ? t(pending.kind === 'credit' ? 'resellers.detail.confirmCredit' : 'resellers.detail.confirmDebit', { amount: money(pending.amount), name: r.name })
                : t(pending.kind === 'credit' ? 'resellers.detail.confirmCredit' : 'resellers.detail.confirmDebit', { amount: `${amount} ${money.currency}`, name: r.name })}
            </Text>
            {pending.note ? <Text size="sm">{t('resellers.detail.confirmNote', { note: pending.note })}</Text> : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPending(null)}>{t('cancel')}</Button>
              <Button color={pending.kind === "debit" ? "red.9" : undefined} loading={send.isPending} onClick={() => send.mutate(pending)}>{t('confirm')}</Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
      </IfCan>
      <Title order={3} size="h5" mt="md" mb="xs">{t('resellers.detail.history')}</Title>
      <DataTable
        caption={t('resellers.detail.history')}
        rows={history.data?.data.entries ?? []}
        rowKey={(e) => e.id}
        meta={history.data?.meta as never}
        onPage={setPage}
        columns={[
          { key: 'when', header: t('resellers.detail.when'), cell: (e) => formatDateTime(e.created_at, i18n.language) },
          { key: 'type', header: t('resellers.detail.type'), cell: (e) => t(`entryTypes.${e.type}`) },
          { key: 'amount', header: t('orders.amount'), align: 'right', cell: (e) => money(e.amount) },
          { key: 'after', header: t('resellers.detail.balanceAfter'), align: 'right', cell: (e) => money(e.balance_after) },
          { key: 'note', header: t('note'), cell: (e) => e.note ?? e.order_id ?? '' },
        ]}
      />
    </Card>
  );
}
