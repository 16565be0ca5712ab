import { Alert, Badge, Button, Card, Code, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { adminApi } from '../../../shared/api/admin.js';
import { call, callData } from '../../../shared/api/client.js';
import { formatDateTime } from '../../../shared/format/dates.js';
import { formatMoney } from '../../../shared/format/money.js';
import { formValues, useApiForm } from '../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../shared/table/DataTable.js';
import { usePagedList, type PageQuery } from '../../../shared/table/usePagedList.js';
import { ErrorAlert } from '../../../shared/ui/QueryState.js';
import { useCan } from '../auth/hooks.js';

const KEYS = ['state'] as const;
const STATES = ['open', 'paid', 'failed', 'expired', 'cancelled', 'reversed'] as const;
const COLORS: Record<string, string> = { open: 'blue', review: 'blue', paid: 'green', failed: 'red', expired: 'gray', cancelled: 'gray', reversed: 'orange' };
const fetchPayments = (query: PageQuery) => call(adminApi.GET('/gateway-payments', { params: { query: query as never } }));

/** Gateway payments, each with its raw notifications; after a refund, the reversal of its credit. */
export function GatewayPayments() {
  const { t, i18n } = useTranslation();
  const me = useQuery({ queryKey: ['admin', 'me'], queryFn: () => callData(adminApi.GET('/me')) });
  const money = (v: number | string) => formatMoney(v, me.data?.currency ?? 'IDR', i18n.language);
  const { filters, apply, setPage, list } = usePagedList(KEYS, ['admin', 'gateway-payments'], fetchPayments, { limit: 25 });
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Stack>
      <Card withBorder>
        <form key={JSON.stringify(filters)} onSubmit={(e) => apply(formValues(e))}>
          <Group align="flex-end">
            <NativeSelect name="state" label={t('gatewayAdmin.state')} defaultValue={filters.state} w={220}
              data={[{ value: '', label: t('all') }, ...STATES.map((s) => ({ value: s, label: t(`gatewayAdmin.states.${s}`) }))]} />
            <Button type="submit">{t('search')}</Button>
          </Group>
        </form>
      </Card>
      {list.error ? <ErrorAlert error={list.error} /> : null}
      <Card withBorder>
        <DataTable
          caption={t('gatewayAdmin.payments')}
          rows={list.data?.data.payments ?? []}
          rowKey={(p) => p.id}
          meta={list.data?.meta as never}
          onPage={setPage}
          columns={[
            { key: 'at', header: t('gatewayAdmin.created'), cell: (p) => formatDateTime(p.created_at, i18n.language) },
            { key: 'id', header: 'ID', cell: (p) => <Code>{p.id}</Code> },
            { key: 'reseller', header: t('gatewayAdmin.reseller'), cell: (p) => <Link to={`/resellers/${p.reseller_id}`}>{p.reseller_name}</Link> },
            { key: 'method', header: t('gatewayAdmin.method'), cell: (p) => p.method ?? '' },
            { key: 'amount', header: t('gatewayAdmin.amount'), align: 'right', cell: (p) => money(p.amount) },
            { key: 'payable', header: t('gatewayAdmin.payable'), align: 'right', cell: (p) => money(p.payable) },
            { key: 'state', header: t('gatewayAdmin.state'), cell: (p) => <Badge color={COLORS[p.state] ?? 'gray'} variant="light">{t(`gatewayAdmin.states.${p.state}`)}</Badge> },
            { key: 'x', header: t('actions'), cell: (p) => <Button size="xs" variant="default" onClick={() => setOpen(p.id)} aria-label={`${t('gatewayAdmin.show')} ${p.id}`}>{t('gatewayAdmin.show')}</Button> },
          ]}
        />
      </Card>
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={t('gatewayAdmin.notifications', { id: open })} size="xl" closeButtonProps={{ 'aria-label': t('gatewayAdmin.close') }}>
        {open ? <PaymentDetail id={open} money={money} /> : null}
      </Modal>
    </Stack>
  );
}

function PaymentDetail(props: { id: string; money: (v: number | string) => string }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const mayReverse = useCan()('wallet.adjust');
  const detail = useQuery({ queryKey: ['admin', 'gateway-payment', props.id], queryFn: () => callData(adminApi.GET('/gateway-payments/{id}', { params: { path: { id: props.id } } })) });
  const [confirming, setConfirming] = useState(false);
  const reverse = useApiForm(['amount', 'note'], {
    mutationFn: (v: { amount: string; note: string }) => callData(adminApi.POST('/gateway-payments/{id}/reverse', {
      params: { path: { id: props.id } }, body: { ...(v.amount.trim() ? { amount: Number(v.amount) } : {}), ...(v.note.trim() ? { note: v.note.trim() } : {}) },
    })),
    onSuccess: () => {
      setConfirming(false);
      void qc.invalidateQueries({ queryKey: ['admin'] });
    },
  });
  if (detail.error) return <ErrorAlert error={detail.error} />;
  const d = detail.data;
  if (!d) return <Text>…</Text>;
  const refund = d.refund;
  return (
    <Stack>
      <Text size="sm">{t('gatewayAdmin.reference')}: <Code>{d.payment.reference ?? '—'}</Code> · {t('gatewayAdmin.fee')}: {props.money(d.payment.fee)}</Text>
      {refund ? (
        <Alert color="orange">
          <Stack gap="xs">
            <Text size="sm">{t('gatewayAdmin.refund', { status: refund.transaction_status, amount: refund.refund_amount ?? '—' })}</Text>
            {d.payment.state === 'paid' && mayReverse ? <Group><Button size="xs" color="orange" onClick={() => setConfirming(true)}>{t('gatewayAdmin.reverse')}</Button></Group> : null}
            {d.payment.state === 'reversed' ? <Badge color="orange" variant="light">{t('gatewayAdmin.reversed')}</Badge> : null}
          </Stack>
        </Alert>
      ) : null}
      {confirming ? (
        <Card withBorder>
          <form noValidate onSubmit={(e) => { const v = formValues(e); reverse.mutate({ amount: v.amount ?? '', note: v.note ?? '' }); }}>
            <Stack>
              <Text fw={700}>{t('gatewayAdmin.reverseTitle', { id: props.id })}</Text>
              <Text size="sm">{t('gatewayAdmin.reverseText')}</Text>
              <TextInput name="amount" label={t('gatewayAdmin.reverseAmount')} inputMode="decimal" error={reverse.errors.fields.amount} />
              <TextInput name="note" label={t('gatewayAdmin.note')} error={reverse.errors.fields.note} />
              {reverse.errors.general ? <ErrorAlert error={reverse.error} /> : null}
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setConfirming(false)}>{t('cancel')}</Button>
                <Button type="submit" color="orange" loading={reverse.isPending}>{t('gatewayAdmin.reverse')}</Button>
              </Group>
            </Stack>
          </form>
        </Card>
      ) : null}
      {d.notifications.length === 0 ? <Text c="dimmed">{t('gatewayAdmin.noNotifications')}</Text> : null}
      {d.notifications.map((n) => (
        <Card withBorder key={n.id}>
          <Group gap="xs" mb="xs">
            <Text size="sm">{formatDateTime(n.received_at, i18n.language)}</Text>
            <Badge variant="light">{t('gatewayAdmin.status')}: {n.transaction_status ?? '—'}</Badge>
            <Badge variant="light" color="gray">{t('gatewayAdmin.confirmed')}: {n.confirmed_status ?? '—'}</Badge>
            <Badge variant="light" color={n.signature_valid ? 'green' : 'red'}>{t('gatewayAdmin.signature')}: {n.signature_valid ? t('gatewayAdmin.valid') : t('gatewayAdmin.invalid')}</Badge>
            <Badge variant="outline">{t('gatewayAdmin.outcome')}: {n.outcome}</Badge>
          </Group>
          <Code block aria-label={t('gatewayAdmin.body')} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{n.body}</Code>
        </Card>
      ))}
    </Stack>
  );
}

export default GatewayPayments;
