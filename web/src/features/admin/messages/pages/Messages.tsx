import { Badge, Button, Card, Code, Group, Modal, NativeSelect, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { call, callData } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { formValues } from '../../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { usePagedList, type PageQuery } from '../../../../shared/table/usePagedList.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useCan } from '../../auth/hooks.js';
import { MESSAGE_STATES } from '../i18n.js';

const KEYS = ['state'] as const;
const fetchMessages = (query: PageQuery) => call(adminApi.GET('/messages', { params: { query } }));
const COLORS = { pending: 'blue', sent: 'green', kept: 'gray', failed: 'red' } as const;

/** The outbox: what was emailed or kept, how sending went; read a message, send it again. */
export default function Messages() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const mayResend = useCan()('messages.resend');
  const { filters, apply, setPage, list } = usePagedList(KEYS, ['admin', 'messages'], fetchMessages, { limit: 25 });
  const [open, setOpen] = useState<string | null>(null);
  const body = useQuery({ queryKey: ['admin', 'message', open], enabled: open !== null, queryFn: () => callData(adminApi.GET('/messages/{id}', { params: { path: { id: open! } } })) });
  const resend = useMutation({
    mutationFn: (id: string) => callData(adminApi.POST('/messages/{id}/resend', { params: { path: { id } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['admin'] }),
  });
  return (
    <>
      <PageTitle>{t('messages.title')}</PageTitle>
      <Text mb="md">{t('messages.intro')}</Text>
      <Card withBorder mb="md">
        <form key={JSON.stringify(filters)} onSubmit={(e) => apply(formValues(e))}>
          <Group align="flex-end">
            <NativeSelect name="state" label={t('messages.state')} defaultValue={filters.state} w={220}
              data={[{ value: '', label: t('all') }, ...MESSAGE_STATES.map((s) => ({ value: s, label: t(`messages.states.${s}`) }))]} />
            <Button type="submit">{t('search')}</Button>
          </Group>
        </form>
      </Card>
      {list.error ? <ErrorAlert error={list.error} /> : null}
      {resend.error ? <ErrorAlert error={resend.error} /> : null}
      <Card withBorder>
        <DataTable
          caption={t('messages.title')}
          rows={list.data?.data.messages ?? []}
          rowKey={(m) => m.id}
          meta={list.data?.meta as never}
          onPage={setPage}
          columns={[
            { key: 'at', header: t('messages.when'), cell: (m) => formatDateTime(m.created_at, i18n.language) },
            { key: 'to', header: t('messages.to'), cell: (m) => (m.recipient_kind === 'telegram' ? t('messages.telegramChat', { chat: m.to }) : m.to) },
            { key: 'subject', header: t('messages.subject'), cell: (m) => m.subject },
            { key: 'state', header: t('messages.state'), cell: (m) => <Badge color={COLORS[m.state]} variant="light">{t(`messages.states.${m.state}`)}</Badge> },
            { key: 'attempts', header: t('messages.attempts'), cell: (m) => String(m.attempts) },
            { key: 'error', header: t('messages.error'), cell: (m) => m.error ?? '' },
            {
              key: 'actions', header: t('actions'),
              cell: (m) => (
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="default" onClick={() => setOpen(m.id)}>{t('messages.show')}</Button>
                  {mayResend ? <Button size="xs" variant="light" disabled={m.state === 'pending'} loading={resend.isPending && resend.variables === m.id} onClick={() => resend.mutate(m.id)}>{t('messages.resend')}</Button> : null}
                </Group>
              ),
            },
          ]}
        />
      </Card>
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={body.data?.subject ?? t('messages.title')} size="lg">
        {body.error ? <ErrorAlert error={body.error} /> : <Code block>{body.data?.text ?? ''}</Code>}
      </Modal>
    </>
  );
}
