import { Button, Card, Code, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callData } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { formValues, useApiForm } from '../../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';

export default function IpWhitelist() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['whitelist'], queryFn: () => callData(dashboardApi.GET('/whitelist')) });
  const [value, setValue] = useState('');
  const [removing, setRemoving] = useState<string | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['whitelist'] });
    void qc.invalidateQueries({ queryKey: ['overview'] });
  };
  const add = useApiForm(['ip'], {
    mutationFn: (ip: string) => callData(dashboardApi.POST('/whitelist', { body: { ip } })),
    onSuccess: () => {
      setValue('');
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (ip: string) => callData(dashboardApi.DELETE('/whitelist/{ip}', { params: { path: { ip } } })),
    onSuccess: () => {
      setRemoving(null);
      refresh();
    },
  });
  return (
    <>
      <PageTitle>{t('ips.title')}</PageTitle>
      <Stack>
        <Card withBorder>
          <Text size="sm" mb="sm">{t('ips.intro')}</Text>
          <form noValidate onSubmit={(e) => add.mutate(formValues(e).ip ?? '')}>
            <Group align="flex-start">
              <TextInput name="ip" label={t('ips.address')} value={value} onChange={(e) => setValue(e.currentTarget.value)} error={add.errors.fields.ip} w={320} maw="100%" />
              <Button type="submit" mt={25} loading={add.isPending}>{t('ips.add')}</Button>
            </Group>
            {add.errors.general ? <ErrorAlert error={add.error} /> : null}
          </form>
        </Card>
        {list.error ? <ErrorAlert error={list.error} /> : null}
        <Card withBorder>
          <DataTable
            caption={t('ips.title')}
            rows={list.data?.whitelist ?? []}
            rowKey={(r) => r.ip}
            columns={[
              { key: 'ip', header: t('ips.address'), cell: (r) => <Code>{r.ip}</Code> },
              { key: 'at', header: t('ips.added'), cell: (r) => formatDateTime(r.created_at, i18n.language) },
              { key: 'x', header: '', align: 'right', cell: (r) => <Button size="xs" color="red" variant="light" onClick={() => setRemoving(r.ip)} aria-label={`${t('remove')} ${r.ip}`}>{t('remove')}</Button> },
            ]}
          />
        </Card>
      </Stack>
      <Modal opened={!!removing} onClose={() => setRemoving(null)} title={t('ips.removeTitle')}>
        <Stack>
          <Text size="sm">{t('ips.removeText', { ip: removing })}</Text>
          {remove.error ? <ErrorAlert error={remove.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRemoving(null)}>{t('cancel')}</Button>
            <Button color="red" loading={remove.isPending} onClick={() => removing && remove.mutate(removing)}>{t('remove')}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
