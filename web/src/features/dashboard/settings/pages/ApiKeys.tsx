import { Alert, Button, Card, Checkbox, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callData } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';

function Copyable(props: { label: string; value: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>{props.label}</Text>
      <Group gap="xs" wrap="nowrap">
        <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid={props.label}>{props.value}</Code>
        <CopyButton value={props.value}>
          {({ copied, copy }) => <Button size="xs" variant="default" onClick={copy} aria-label={`${t('copy')}: ${props.label}`}>{copied ? t('copied') : t('copy')}</Button>}
        </CopyButton>
      </Group>
    </Stack>
  );
}

export default function ApiKeys() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: () => callData(dashboardApi.GET('/api-keys')) });
  const [revokeNow, setRevokeNow] = useState(false);
  const [revoking, setRevoking] = useState<{ id: string; api_key: string } | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['api-keys'] });
    void qc.invalidateQueries({ queryKey: ['overview'] });
  };
  const generate = useMutation({
    mutationFn: () => callData(dashboardApi.POST('/api-keys', { body: { revoke_previous: revokeNow ? 'now' : 'after_overlap' } })),
    onSuccess: refresh,
  });
  const revoke = useMutation({
    mutationFn: (id: string) => callData(dashboardApi.DELETE('/api-keys/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      setRevoking(null);
      refresh();
    },
  });
  const when = (iso: string | null) => formatDateTime(iso, i18n.language, true);
  return (
    <>
      <PageTitle>{t('keys.title')}</PageTitle>
      <Stack>
        <Card withBorder>
          <Text size="sm" mb="sm">{t('keys.intro')}</Text>
          <Group>
            <Button onClick={() => generate.mutate()} loading={generate.isPending}>{t('keys.generate')}</Button>
            <Checkbox label={t('keys.revokeNow')} checked={revokeNow} onChange={(e) => setRevokeNow(e.currentTarget.checked)} />
          </Group>
          {generate.error ? <ErrorAlert error={generate.error} /> : null}
        </Card>
        {keys.error ? <ErrorAlert error={keys.error} /> : null}
        <Card withBorder>
          <DataTable
            caption={t('keys.title')}
            rows={keys.data?.api_keys ?? []}
            rowKey={(k) => k.id}
            columns={[
              { key: 'key', header: t('keys.key'), cell: (k) => <Code>{k.api_key}</Code> },
              { key: 'state', header: t('keys.state'), cell: (k) => t(`keys.states.${k.state}`) },
              { key: 'created', header: t('keys.created'), cell: (k) => when(k.created_at) },
              { key: 'ends', header: t('keys.endsAt'), cell: (k) => (k.revoked_at ? when(k.revoked_at) : '—') },
              {
                key: 'actions', header: '', align: 'right',
                cell: (k) => (k.state === 'revoked' ? null : (
                  <Button size="xs" color="red" variant="light" onClick={() => setRevoking(k)} aria-label={`${t('keys.revoke')} ${k.api_key}`}>{t('keys.revoke')}</Button>
                )),
              },
            ]}
          />
        </Card>
      </Stack>
      <Modal opened={!!generate.data} onClose={() => generate.reset()} title={t('keys.newTitle')} size="lg" closeOnClickOutside={false}>
        {generate.data ? (
          <Stack>
            <Alert color="orange" role="alert">{t('keys.secretWarning')}</Alert>
            <Copyable label={t('keys.key')} value={generate.data.api_key} />
            <Copyable label={t('keys.secret')} value={generate.data.api_secret} />
            <Button onClick={() => generate.reset()}>{t('keys.saved')}</Button>
          </Stack>
        ) : null}
      </Modal>
      <Modal opened={!!revoking} onClose={() => setRevoking(null)} title={t('keys.revokeTitle')}>
        <Stack>
          <Text size="sm">{t('keys.revokeText', { key: revoking?.api_key })}</Text>
          {revoke.error ? <ErrorAlert error={revoke.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(null)}>{t('cancel')}</Button>
            <Button color="red" loading={revoke.isPending} onClick={() => revoking && revoke.mutate(revoking.id)}>{t('keys.revoke')}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
