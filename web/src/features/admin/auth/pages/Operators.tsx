import { Alert, Button, Card, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, type AdminPaths } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { formValues, useApiForm } from '../../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { ConfirmButton } from '../../ui/ConfirmButton.js';
import { useCan } from '../hooks.js';
import { RolesEditor } from '../RolesEditor.js';

type OperatorRow = AdminPaths['/operators']['get']['responses'][200]['content']['application/json']['data']['operators'][number];

/** Every operator; add one (its generated password is shown once) or reset one's password. */
export default function Operators() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const manage = useCan()('operators.manage');
  const list = useQuery({ queryKey: ['admin', 'operators'], queryFn: () => callData(adminApi.GET('/operators')) });
  const [shown, setShown] = useState<{ email: string; password: string } | null>(null);
  const add = useApiForm(['email', 'name'], {
    mutationFn: (body: { email: string; name: string }) => callData(adminApi.POST('/operators', { body })),
    onSuccess: (o) => {
      setShown({ email: o.email, password: o.password });
      void qc.invalidateQueries({ queryKey: ['admin', 'operators'] });
    },
  });
  const reset = useMutation({
    mutationFn: (id: string) => callData(adminApi.POST('/operators/{id}/reset-password', { params: { path: { id } }, body: {} })),
    onSuccess: (o) => setShown({ email: o.email, password: o.password }),
  });
  const [ended, setEnded] = useState<{ email: string; n: number } | null>(null);
  const endSessions = useMutation({
    mutationFn: (r: OperatorRow) => callData(adminApi.DELETE('/operators/{id}/sessions', { params: { path: { id: r.id } } })).then((x) => ({ email: r.email, n: x.ended })),
    onSuccess: setEnded,
  });
  return (
    <>
      <PageTitle>{t('operators.title')}</PageTitle>
      <Stack>
        {shown ? (
          <Alert color="green" title={t('operators.passwordOnce', { email: shown.email })} withCloseButton closeButtonLabel={t('cancel')} onClose={() => setShown(null)}>
            <Code data-testid="generated-password">{shown.password}</Code>
          </Alert>
        ) : null}
        {manage ? <Card withBorder>
          <form noValidate onSubmit={(e) => { const v = formValues(e); add.mutate({ email: v.email ?? '', name: v.name ?? '' }); }}>
            <Group align="flex-start" wrap="wrap">
              <TextInput name="email" type="email" label={t('auth.email')} error={add.errors.fields.email} w={280} />
              <TextInput name="name" label={t('operators.name')} error={add.errors.fields.name} w={220} />
              <Button type="submit" mt={25} loading={add.isPending}>{t('operators.add')}</Button>
            </Group>
            {add.errors.general ? <Alert color="red" role="alert" mt="sm">{add.errors.general}</Alert> : null}
          </form>
        </Card> : null}
        {list.error ? <ErrorAlert error={list.error} /> : null}
        {reset.error ? <ErrorAlert error={reset.error} /> : null}
        {endSessions.error ? <ErrorAlert error={endSessions.error} /> : null}
        {ended ? <Alert color="green" role="status" withCloseButton closeButtonLabel={t('cancel')} onClose={() => setEnded(null)}>{t('operators.sessionsEnded', { email: ended.email, count: ended.n })}</Alert> : null}
        <Card withBorder>
          <DataTable
            caption={t('operators.title')}
            rows={list.data?.operators ?? []}
            rowKey={(r) => r.id}
            columns={[
              { key: 'email', header: t('auth.email'), cell: (r) => r.email },
              { key: 'name', header: t('operators.name'), cell: (r) => r.name },
              { key: 'roles', header: t('operators.roles'), cell: (r) => r.roles.join(', ') },
              { key: 'at', header: t('operators.added'), cell: (r) => formatDateTime(r.created_at, i18n.language) },
              // Only an operator who may manage operators sees the actions.
              ...(!manage ? [] : [{
                key: 'x', header: t('actions'), align: 'right' as const,
                cell: (r: OperatorRow) => (
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <RolesEditor operator={r} />
                    <ConfirmButton label={t('operators.reset')} title={t('operators.reset')} color="orange.9" onConfirm={() => reset.mutate(r.id)}>
                      <Text size="sm">{t('operators.resetText', { email: r.email })}</Text>
                    </ConfirmButton>
                    <ConfirmButton label={t('operators.endSessions')} title={t('operators.endSessions')} color="red.9" onConfirm={() => endSessions.mutate(r)}>
                      <Text size="sm">{t('operators.endSessionsText', { email: r.email })}</Text>
                    </ConfirmButton>
                  </Group>
                ),
              }]),
            ]}
          />
        </Card>
      </Stack>
    </>
  );
}
