import { Alert, Badge, Card, Code, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { ConfirmButton } from '../../ui/ConfirmButton.js';
import { useCan } from '../../auth/hooks.js';
import type { Reseller } from './types.js';

/** API keys, masked; revoke one, or issue one on the reseller's behalf (its secret shown once). */
export function KeysCard({ reseller: r }: { reseller: Reseller }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const may = useCan()('resellers.integration');
  const done = () => void qc.invalidateQueries({ queryKey: ['admin', 'reseller', r.id] });
  const issue = useMutation({
    mutationFn: () => callData(adminApi.POST('/resellers/{id}/api-keys', { params: { path: { id: r.id } }, body: {} })),
    onSuccess: done,
  });
  const revoke = useMutation({
    mutationFn: (keyId: string) => callData(adminApi.DELETE('/resellers/{id}/api-keys/{keyId}', { params: { path: { id: r.id, keyId } } })),
    onSuccess: done,
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">{t('resellers.detail.apiKeys')}</Title>
      <Stack>
        <DataTable
          caption={t('resellers.detail.apiKeys')}
          rows={r.api_keys}
          rowKey={(k) => k.id}
          columns={[
            { key: 'key', header: t('resellers.detail.key'), cell: (k) => <Code>{k.masked_key}</Code> },
            { key: 'created', header: t('resellers.created'), cell: (k) => formatDateTime(k.created_at, i18n.language) },
            { key: 'state', header: t('resellers.status'), cell: (k) => (k.revoked_at ? <Badge color="gray" variant="light">{t('resellers.detail.revoked')}</Badge> : <Badge color="green" variant="light">{t('resellers.detail.live')}</Badge>) },
            {
              key: 'x', header: t('actions'), align: 'right',
              cell: (k) => (k.revoked_at || !may ? null : (
                <ConfirmButton label={t('resellers.detail.revoke')} title={t('resellers.detail.revoke')} color="red" onConfirm={() => revoke.mutate(k.id)}>
                  <Text size="sm">{t('resellers.detail.revokeText', { key: k.masked_key })}</Text>
                </ConfirmButton>
              )),
            },
          ]}
        />
        {r.status === 'active' && may ? (
          <div>
            <ConfirmButton label={t('resellers.detail.issue')} title={t('resellers.detail.issue')} size="sm" onConfirm={() => issue.mutate()}>
              <Text size="sm">{t('resellers.detail.issueText')}</Text>
            </ConfirmButton>
          </div>
        ) : null}
        {issue.data ? (
          <Alert color="green" title={t('resellers.detail.issued')}>
            <Stack gap={4}>
              <Code>{issue.data.api_key}</Code>
              <Code>{issue.data.api_secret}</Code>
            </Stack>
          </Alert>
        ) : null}
        {issue.error ? <ErrorAlert error={issue.error} /> : null}
        {revoke.error ? <ErrorAlert error={revoke.error} /> : null}
      </Stack>
    </Card>
  );
}
