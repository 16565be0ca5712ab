import { Alert, Badge, Card, Code, CopyButton, Button, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { ConfirmButton } from '../../ui/ConfirmButton.js';
import { useCan } from '../../auth/hooks.js';
import type { Reseller } from './types.js';

const STATE_COLOR = { open: 'blue', used: 'green', expired: 'gray', revoked: 'gray' } as const;

/** One-time links where the reseller sets its dashboard password; the link is shown once. */
export function InvitationsCard({ reseller: r }: { reseller: Reseller }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const may = useCan()('resellers.accounts');
  const key = ['admin', 'reseller', r.id, 'invitations'];
  const list = useQuery({ queryKey: key, queryFn: () => callData(adminApi.GET('/resellers/{id}/invitations', { params: { path: { id: r.id } } })) });
  const done = () => void qc.invalidateQueries({ queryKey: key });
  const send = useMutation({
    mutationFn: () => callData(adminApi.POST('/resellers/{id}/invitations', { params: { path: { id: r.id } }, body: {} })),
    onSuccess: done,
  });
  const revoke = useMutation({
    mutationFn: (invitationId: string) => callData(adminApi.DELETE('/resellers/{id}/invitations/{invitationId}', { params: { path: { id: r.id, invitationId } } })),
    onSuccess: done,
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">{t('resellers.detail.invitations')}</Title>
      <Stack>
        <Text size="sm" c="dimmed">{t('resellers.detail.invitationsText')}</Text>
        <DataTable
          caption={t('resellers.detail.invitations')}
          rows={list.data?.invitations ?? []}
          rowKey={(i) => i.id}
          columns={[
            { key: 'created', header: t('resellers.detail.sent'), cell: (i) => formatDateTime(i.created_at, i18n.language) },
            { key: 'expires', header: t('resellers.detail.expires'), cell: (i) => formatDateTime(i.expires_at, i18n.language) },
            { key: 'state', header: t('resellers.status'), cell: (i) => <Badge color={STATE_COLOR[i.state]} variant="light">{t(`resellers.detail.invitationState.${i.state}`)}</Badge> },
            {
              key: 'x', header: t('actions'), align: 'right',
              cell: (i) => (i.state !== 'open' || !may ? null : (
                <ConfirmButton label={t('resellers.detail.revoke')} title={t('resellers.detail.revoke')} color="red" onConfirm={() => revoke.mutate(i.id)}>
                  <Text size="sm">{t('resellers.detail.revokeInvitationText')}</Text>
                </ConfirmButton>
              )),
            },
          ]}
        />
        {may ? <div>
          <ConfirmButton label={t('resellers.detail.invite')} title={t('resellers.detail.invite')} size="sm" onConfirm={() => send.mutate()}>
            <Text size="sm">{t('resellers.detail.inviteText')}</Text>
          </ConfirmButton>
        </div> : null}
        {send.data ? (
          <Alert color="green" title={t('resellers.detail.invited')}>
            <Stack gap={4}>
              <Code block>{send.data.link}</Code>
              <CopyButton value={send.data.link}>
                {({ copied, copy }) => <div><Button size="xs" variant="light" onClick={copy}>{copied ? t('resellers.detail.copied') : t('resellers.detail.copyLink')}</Button></div>}
              </CopyButton>
            </Stack>
          </Alert>
        ) : null}
        {list.error ? <ErrorAlert error={list.error} /> : null}
        {send.error ? <ErrorAlert error={send.error} /> : null}
        {revoke.error ? <ErrorAlert error={revoke.error} /> : null}
      </Stack>
    </Card>
  );
}
