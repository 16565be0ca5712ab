import { Button, Card, Code, Group, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { useApiForm } from '../../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useCan } from '../../auth/hooks.js';
import type { Reseller } from './types.js';

/** The addresses allowed to call API v1 for the reseller. */
export function WhitelistCard({ reseller: r }: { reseller: Reseller }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const may = useCan()('resellers.integration');
  const [ip, setIp] = useState('');
  const done = () => void qc.invalidateQueries({ queryKey: ['admin', 'reseller', r.id] });
  const add = useApiForm(['ip'], {
    mutationFn: (value: string) => callData(adminApi.POST('/resellers/{id}/whitelist', { params: { path: { id: r.id } }, body: { ip: value } })),
    onSuccess: () => {
      setIp('');
      done();
    },
  });
  const remove = useMutation({
    mutationFn: (value: string) => callData(adminApi.DELETE('/resellers/{id}/whitelist/{ip}', { params: { path: { id: r.id, ip: value } } })),
    onSuccess: done,
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">{t('resellers.detail.whitelist')}</Title>
      <Stack>
        {may ? <form noValidate onSubmit={(e) => { e.preventDefault(); add.mutate(ip); }}>
          <Group align="flex-start">
            <TextInput label={t('resellers.detail.ip')} name="ip" value={ip} onChange={(e) => setIp(e.currentTarget.value)} error={add.errors.fields.ip} />
            <Button type="submit" mt={25} loading={add.isPending}>{t('resellers.detail.addIp')}</Button>
          </Group>
        </form> : null}
        <DataTable
          caption={t('resellers.detail.whitelist')}
          rows={r.ip_whitelist}
          rowKey={(x) => x}
          columns={[
            { key: 'ip', header: t('resellers.detail.ip'), cell: (x) => <Code>{x}</Code> },
            { key: 'x', header: t('actions'), align: 'right', cell: (x) => !may ? null : <Button size="xs" color="red" variant="light" aria-label={`${t('remove')} ${x}`} onClick={() => remove.mutate(x)}>{t('remove')}</Button> },
          ]}
        />
        {remove.error ? <ErrorAlert error={remove.error} /> : null}
      </Stack>
    </Card>
  );
}
