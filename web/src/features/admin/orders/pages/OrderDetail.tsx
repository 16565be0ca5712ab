import { Alert, Anchor, Button, Card, Code, Group, Modal, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { useApiForm } from '../../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert, QueryState } from '../../../../shared/ui/QueryState.js';
import { StateBadge } from '../../../../shared/ui/StateBadge.js';
import { useCan } from '../../auth/hooks.js';
import { newIdempotencyKey, useAdminMoney } from '../../ui/useAdminMoney.js';

/** One order in full: facts, ledger entries, supplier attempt, callback log; refund and resend. */
export default function OrderDetail() {
  const { orderId = '' } = useParams();
  const { t, i18n } = useTranslation();
  const money = useAdminMoney();
  const qc = useQueryClient();
  const can = useCan();
  const key = ['admin', 'order', orderId];
  const order = useQuery({ queryKey: key, queryFn: () => callData(adminApi.GET('/orders/{id}', { params: { path: { id: orderId } } })) });
  const [refunding, setRefunding] = useState<{ key: string } | null>(null);
  const [note, setNote] = useState('');
  const refund = useApiForm(['note'], {
    mutationFn: (idem: string) => callData(adminApi.POST('/orders/{id}/refund', { params: { path: { id: orderId } }, body: { note }, headers: { 'Idempotency-Key': idem } })),
    onSuccess: (o) => {
      qc.setQueryData(key, o);
      void qc.invalidateQueries({ queryKey: ['admin', 'orders'] });
      setRefunding(null);
    },
  });
  const resend = useMutation({
    mutationFn: () => callData(adminApi.POST('/orders/{id}/resend-callback', { params: { path: { id: orderId } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: key }),
  });
  const dt = (iso: string | null | undefined) => formatDateTime(iso, i18n.language, true);
  return (
    <QueryState query={order}>
      {(o) => {
        const row = (k: string, v: React.ReactNode) => <Table.Tr key={k}><Table.Th scope="row" w="40%">{k}</Table.Th><Table.Td>{v}</Table.Td></Table.Tr>;
        const refundable = (o.status === 'processing' || o.status === 'success') && can('orders.refund');
        return (
          <>
            <PageTitle actions={<StateBadge state={o.status} />}>{t('orders.detailTitle', { code: o.order_code })}</PageTitle>
            <Stack>
              <Group>
                {refundable ? <Button color="orange" variant="light" onClick={() => { refund.reset(); setRefunding({ key: newIdempotencyKey() }); }}>{t('orders.refund')}</Button> : null}
                {(o.status === 'success' || o.status === 'failed') && can('callbacks.resend') ? <Button variant="default" loading={resend.isPending} onClick={() => resend.mutate()}>{t('orders.resend')}</Button> : null}
              </Group>
              {resend.isSuccess ? <Alert color="green" role="status">{t('orders.resent', { round: resend.data.round })}</Alert> : null}
              {resend.error ? <ErrorAlert error={resend.error} /> : null}
              {refund.isSuccess ? <Alert color="green" role="status">{t('orders.refunded')}</Alert> : null}
              <SimpleGrid cols={{ base: 1, lg: 2 }}>
                <Card withBorder>
                  <Title order={2} size="h4" mb="sm">{t('orders.facts')}</Title>
                  <Table><Table.Tbody>
                    {row(t('orders.orderCode'), <Code>{o.order_code}</Code>)}
                    {row(t('orders.orderId'), <Code>{o.order_id}</Code>)}
                    {row(t('orders.refId'), o.ref_id)}
                    {row(t('orders.reseller'), <><Anchor component={Link} to={`/resellers/${o.reseller_id}`}>{o.reseller_name}</Anchor> <Text span size="sm" c="dimmed">{o.reseller_email}</Text></>)}
                    {row(t('orders.product'), `${o.product_code} · ${o.product_name}`)}
                    {row(t('orders.target'), o.zone_id ? `${o.target_id} (${o.zone_id})` : o.target_id)}
                    {row(t('orders.amount'), money(o.price))}
                    {row(t('orders.serial'), o.serial_number ?? '—')}
                    {row(t('orders.failure'), o.failure_code ? `${o.failure_code}: ${o.failure_reason ?? ''}` : '—')}
                    {row(t('orders.created'), dt(o.created_at))}
                    {row(t('orders.completed'), dt(o.completed_at))}
                  </Table.Tbody></Table>
                </Card>
                <Card withBorder>
                  <Title order={2} size="h4" mb="sm">{t('orders.supplierAttempts')}</Title>
                  <Table><Table.Tbody>
                    {row(t('orders.supplier'), o.fulfilment.supplier ?? '—')}
                    {row(t('orders.sku'), o.fulfilment.supplier_sku ?? '—')}
                    {row(t('orders.routesTried'), String(o.fulfilment.routes_tried))}
                    {row(t('orders.attention'), o.fulfilment.needs_attention ? t('yes') : t('no'))}
                    {row(t('orders.checker'), o.fulfilment.checker_verified ? t('yes') : t('no'))}
                    {row(t('orders.supplierSerial'), o.fulfilment.supplier_serial ?? '—')}
                    {row(t('orders.supplierMessage'), o.fulfilment.supplier_message ?? '—')}
                  </Table.Tbody></Table>
                </Card>
              </SimpleGrid>
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">{t('orders.ledger')}</Title>
                <DataTable
                  caption={t('orders.ledger')}
                  rows={o.ledger}
                  rowKey={(e) => e.id}
                  columns={[
                    { key: 'when', header: t('orders.when'), cell: (e) => dt(e.created_at) },
                    { key: 'type', header: t('orders.entryType'), cell: (e) => t(`entryTypes.${e.type}`) },
                    { key: 'amount', header: t('orders.amount'), align: 'right', cell: (e) => money(e.amount) },
                    { key: 'after', header: t('orders.balanceAfter'), align: 'right', cell: (e) => money(e.balance_after) },
                    { key: 'note', header: t('note'), cell: (e) => e.note ?? '' },
                  ]}
                />
              </Card>
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">{t('orders.callbacks')}</Title>
                <DataTable
                  caption={t('orders.callbacks')}
                  rows={o.callbacks.flatMap((c) => (c.attempt_log.length ? c.attempt_log.map((a) => ({ c, a: a as typeof a | null })) : [{ c, a: null }]))}
                  rowKey={(x) => `${x.c.callback_id}-${x.a?.attempt ?? 0}`}
                  columns={[
                    { key: 'round', header: t('orders.round'), cell: (x) => `${x.c.round} · ${t(`orders.callbackStates.${x.c.status}`)}` },
                    { key: 'attempt', header: t('orders.attempt'), cell: (x) => (x.a ? String(x.a.attempt) : '—') },
                    { key: 'at', header: t('orders.when'), cell: (x) => (x.a ? dt(x.a.started_at) : dt(x.c.next_attempt_at)) },
                    { key: 'http', header: t('orders.httpStatus'), cell: (x) => (x.a?.http_status ?? x.a?.error ?? '—') },
                    { key: 'ms', header: t('orders.duration'), align: 'right', cell: (x) => (x.a ? `${x.a.duration_ms} ms` : '') },
                    { key: 'resp', header: t('orders.response'), cell: (x) => (x.a?.response_snippet ? <Code>{x.a.response_snippet.slice(0, 80)}</Code> : '') },
                  ]}
                />
              </Card>
            </Stack>
            <Modal opened={!!refunding} onClose={() => setRefunding(null)} title={t('orders.refundTitle', { amount: money(o.price) })}>
              <form noValidate onSubmit={(e) => { e.preventDefault(); if (refunding) refund.mutate(refunding.key); }}>
                <Stack>
                  <Text size="sm">{o.status === 'processing' ? t('orders.refundProcessing') : t('orders.refundSuccess')}</Text>
                  <TextInput label={t('note')} name="note" value={note} onChange={(e) => setNote(e.currentTarget.value)} error={refund.errors.fields.note} data-autofocus />
                  {refund.errors.general ? <Alert color="red" role="alert">{refund.errors.general}</Alert> : null}
                  <Group justify="flex-end">
                    <Button variant="default" onClick={() => setRefunding(null)}>{t('cancel')}</Button>
                    <Button type="submit" color="red.9" loading={refund.isPending}>{t('orders.refundConfirm', { amount: money(o.price) })}</Button>
                  </Group>
                </Stack>
              </form>
            </Modal>
          </>
        );
      }}
    </QueryState>
  );
}
