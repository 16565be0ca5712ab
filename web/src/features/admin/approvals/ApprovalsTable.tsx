import { Alert, Anchor, Badge, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { adminApi, type AdminPaths } from '../../../shared/api/admin.js';
import { callData } from '../../../shared/api/client.js';
import { formatDateTime } from '../../../shared/format/dates.js';
import { DataTable, type PageMeta } from '../../../shared/table/DataTable.js';
import { ErrorAlert } from '../../../shared/ui/QueryState.js';
import { ConfirmButton } from '../ui/ConfirmButton.js';
import { useAdminMoney } from '../ui/useAdminMoney.js';
import { useCan, useOperatorSession, type Permission } from '../auth/hooks.js';

export type ApprovalRequest = AdminPaths['/approvals/{id}']['get']['responses'][200]['content']['application/json']['data'];

const STATE_COLORS: Record<string, string> = { pending: 'blue', approved: 'green', rejected: 'gray', failed: 'red', cancelled: 'gray' };
const kindKey = (kind: string) => `approvals.kinds.${kind.replace('.', '_')}`;

/** Where the request's target lives in the console. */
const targetLink = (r: ApprovalRequest) =>
  r.target_kind === 'reseller' ? `/resellers/${r.target_id}` : r.target_kind === 'order' ? `/orders/${r.target_id}` : '/supply';

export function ApprovalStateBadge({ state }: { state: string }) {
  const { t } = useTranslation();
  return <Badge color={STATE_COLORS[state] ?? 'gray'} variant="light" miw="max-content">{t(`approvals.states.${state}`)}</Badge>;
}

/**
 * Four-eyes requests with what this operator may do about each: approve or reject another
 * operator's request whose action their roles allow (the API decides again), or withdraw
 * their own. The API's answer to a decision is shown as it came (approved, failed: why).
 */
export function ApprovalsTable(props: { rows: ApprovalRequest[]; caption: string; meta?: PageMeta; onPage?(page: number): void; empty?: string }) {
  const { t, i18n } = useTranslation();
  const money = useAdminMoney();
  const can = useCan();
  const me = useOperatorSession().data?.operator_id;
  const qc = useQueryClient();
  const [rejecting, setRejecting] = useState<ApprovalRequest | null>(null);
  const [reason, setReason] = useState('');
  const [outcome, setOutcome] = useState<ApprovalRequest | null>(null);
  const done = (r: ApprovalRequest) => {
    setOutcome(r);
    setRejecting(null);
    setReason('');
    void qc.invalidateQueries({ queryKey: ['admin'] });
  };
  const decide = useMutation({
    mutationFn: (a: { id: string; action: 'approve' | 'cancel' }) => callData(adminApi.POST(a.action === 'approve' ? '/approvals/{id}/approve' : '/approvals/{id}/cancel', { params: { path: { id: a.id } }, body: {} })),
    onSuccess: done,
  });
  const reject = useMutation({
    mutationFn: (a: { id: string; reason: string }) => callData(adminApi.POST('/approvals/{id}/reject', { params: { path: { id: a.id } }, body: { reason: a.reason } })),
    onSuccess: done,
  });
  const summary = (r: ApprovalRequest) => ({ kind: t(kindKey(r.kind)), target: r.target_id, amount: r.amount === null ? '' : ` (${money(r.amount)})` });
  const actions = (r: ApprovalRequest) => {
    if (r.state !== 'pending') return null;
    if (r.requested_by === me) {
      return (
        <Group gap="xs" wrap="nowrap">
          <Text size="xs" c="dimmed">{t('approvals.yours')}</Text>
          <ConfirmButton label={t('approvals.cancel')} title={t('approvals.cancelTitle')} color="gray" onConfirm={() => decide.mutate({ id: r.id, action: 'cancel' })}>
            <Text>{t('approvals.cancelBody')}</Text>
          </ConfirmButton>
        </Group>
      );
    }
    if (!can(r.permission as Permission)) return <Text size="xs" c="dimmed">{t('approvals.notYourRole', { roles: r.roles.join(', ') })}</Text>;
    return (
      <Group gap="xs" wrap="nowrap">
        <ConfirmButton label={t('approvals.approve')} title={t('approvals.approveTitle')} color="green" confirmLabel={t('approvals.approve')} onConfirm={() => decide.mutate({ id: r.id, action: 'approve' })}>
          <Text>{t('approvals.approveBody', summary(r))}</Text>
          {r.note ? <Text size="sm">{r.note}</Text> : null}
        </ConfirmButton>
        <Button size="xs" variant="light" color="red.9" onClick={() => { reject.reset(); setRejecting(r); }}>{t('approvals.reject')}</Button>
      </Group>
    );
  };
  return (
    <Stack gap="xs">
      {outcome ? (
        <Alert color={outcome.state === 'approved' ? 'green' : outcome.state === 'failed' ? 'red' : 'gray'} role="status" data-testid="approval-outcome">
          {outcome.state === 'failed' ? t('approvals.failed', { reason: outcome.reason ?? '' }) : t(`approvals.${outcome.state}`)}
        </Alert>
      ) : null}
      {decide.error ? <ErrorAlert error={decide.error} /> : null}
      {/* Kept mounted when the list empties (the last request decided): the outcome above stays. */}
      {props.empty !== undefined && props.rows.length === 0 ? <Text size="sm" c="dimmed">{props.empty}</Text> : <DataTable
        caption={props.caption}
        rows={props.rows}
        rowKey={(r) => r.id}
        meta={props.meta}
        onPage={props.onPage}
        columns={[
          { key: 'kind', header: t('approvals.kind'), cell: (r) => t(kindKey(r.kind)) },
          { key: 'amount', header: t('approvals.amount'), align: 'right', cell: (r) => (r.amount === null ? '—' : money(r.amount)) },
          { key: 'actions', header: t('approvals.actions'), cell: actions },
          { key: 'state', header: t('approvals.state'), cell: (r) => <ApprovalStateBadge state={r.state} /> },
          { key: 'note', header: t('approvals.note'), cell: (r) => r.note ?? '—' },
          { key: 'target', header: t('approvals.target'), cell: (r) => <Anchor component={Link} to={targetLink(r)} size="sm">{r.target_id}</Anchor> },
          { key: 'by', header: t('approvals.requestedBy'), cell: (r) => r.requested_by_email ?? r.requested_by },
          { key: 'at', header: t('approvals.requestedAt'), cell: (r) => formatDateTime(r.requested_at, i18n.language) },
          { key: 'decided', header: t('approvals.decidedBy'), cell: (r) => r.decided_by_email ?? r.decided_by ?? '—' },
          { key: 'reason', header: t('approvals.reason'), cell: (r) => r.reason ?? '—' },
        ]}
      />}
      <Modal opened={!!rejecting} onClose={() => setRejecting(null)} title={t('approvals.rejectTitle')}>
        {rejecting ? (
          <form noValidate onSubmit={(e) => { e.preventDefault(); reject.mutate({ id: rejecting.id, reason }); }}>
            <Stack>
              <Text size="sm">{t('approvals.approveBody', summary(rejecting)).split(' will ')[0]}</Text>
              <Textarea label={t('approvals.rejectReason')} name="reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} autosize minRows={2} data-autofocus />
              {reject.error ? <ErrorAlert error={reject.error} /> : null}
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setRejecting(null)}>{t('cancel')}</Button>
                <Button type="submit" color="red.9" loading={reject.isPending}>{t('approvals.reject')}</Button>
              </Group>
            </Stack>
          </form>
        ) : null}
      </Modal>
    </Stack>
  );
}
