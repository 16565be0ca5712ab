import { Alert, Button, Card, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../shared/api/admin.js';
import { call, callData } from '../../../shared/api/client.js';
import type { components } from '../../../shared/api/generated/admin.js';
import { useApiForm } from '../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../shared/table/DataTable.js';
import { IfCan } from '../auth/Permitted.js';
import { useAdminMoney } from '../ui/useAdminMoney.js';

type Mutation = components['schemas']['BankMutation'];
type Action = { kind: 'assign' | 'handle'; m: Mutation };

/** The unmatched-money queue: assign to a reseller's ticket (credits once) or mark handled outside. */
export function UnmatchedCard() {
  const { t } = useTranslation();
  const money = useAdminMoney();
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const [action, setAction] = useState<Action | null>(null);
  const [value, setValue] = useState('');
  const list = useQuery({
    queryKey: ['admin', 'bank-mutations', 'unmatched', page],
    queryFn: () => call(adminApi.GET('/bank-mutations', { params: { query: { state: 'unmatched', page: String(page), limit: '20' } } })),
  });
  const act = useApiForm(['deposit_id', 'note'], {
    mutationFn: (a: Action): Promise<unknown> => (a.kind === 'assign'
      ? callData(adminApi.POST('/bank-mutations/{id}/assign', { params: { path: { id: a.m.id } }, body: { deposit_id: value.trim() } }))
      : callData(adminApi.POST('/bank-mutations/{id}/handle', { params: { path: { id: a.m.id } }, body: { note: value } }))),
    onSuccess: () => { setAction(null); setValue(''); void qc.invalidateQueries({ queryKey: ['admin'] }); },
  });
  const open = (kind: Action['kind'], m: Mutation) => { act.reset(); setValue(''); setAction({ kind, m }); };
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">{t('deposits.queue')}</Title>
      <DataTable
        caption={t('deposits.queue')}
        rows={list.data?.data.mutations ?? []}
        rowKey={(r) => r.id}
        meta={list.data?.meta}
        onPage={setPage}
        columns={[
          { key: 'date', header: t('deposits.date'), cell: (r) => r.booked_on },
          { key: 'desc', header: t('deposits.description'), cell: (r) => r.description },
          { key: 'amount', header: t('deposits.amount'), cell: (r) => money(r.amount), align: 'right' },
          { key: 'source', header: t('deposits.source'), cell: (r) => r.source },
          {
            key: 'act', header: t('deposits.actions'),
            cell: (r) => (
              <IfCan permission="deposits.manage">
                <Group gap={4} wrap="nowrap">
                  <Button size="xs" variant="light" onClick={() => open('assign', r)}>{t('deposits.assign')}</Button>
                  <Button size="xs" variant="default" onClick={() => open('handle', r)}>{t('deposits.handle')}</Button>
                </Group>
              </IfCan>
            ),
          },
        ]}
      />
      <Modal opened={!!action} onClose={() => setAction(null)} title={action?.kind === 'assign' ? t('deposits.assign') : t('deposits.handle')}>
        {action ? (
          <form noValidate onSubmit={(e) => { e.preventDefault(); act.mutate(action); }}>
            <Stack>
              <Text size="sm">{money(action.m.amount)} · {action.m.description}</Text>
              <Text size="sm">{action.kind === 'assign' ? t('deposits.assignText') : t('deposits.handleText')}</Text>
              <TextInput label={action.kind === 'assign' ? t('deposits.depositId') : t('deposits.note')} value={value} onChange={(e) => setValue(e.currentTarget.value)}
                error={action.kind === 'assign' ? act.errors.fields.deposit_id : act.errors.fields.note} data-autofocus />
              {act.errors.general ? <Alert color="red" role="alert">{act.errors.general}</Alert> : null}
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setAction(null)}>{t('cancel')}</Button>
                <Button type="submit" loading={act.isPending}>{t('deposits.confirm')}</Button>
              </Group>
            </Stack>
          </form>
        ) : null}
      </Modal>
    </Card>
  );
}
