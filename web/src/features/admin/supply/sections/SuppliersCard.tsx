import { Alert, Badge, Button, Card, Group, NativeSelect, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { formValues, useApiForm } from '../../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';

/** Suppliers with health; add one (credentials are write-only: sent, never shown again). */
export function SuppliersCard() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['admin', 'suppliers'], queryFn: () => callData(adminApi.GET('/suppliers')) });
  const [adapter, setAdapter] = useState<'sandbox' | 'upstream-v1'>('sandbox');
  const done = () => void qc.invalidateQueries({ queryKey: ['admin'] });
  const add = useApiForm(['name', 'base_url', 'api_key', 'api_secret'], {
    mutationFn: (v: Record<string, string>) => callData(adminApi.POST('/suppliers', {
      body: adapter === 'sandbox' ? { name: v.name ?? '', adapter } : { name: v.name ?? '', adapter, credentials: { base_url: v.base_url ?? '', api_key: v.api_key ?? '', api_secret: v.api_secret ?? '' } },
    })),
    onSuccess: done,
  });
  const patch = useMutation({
    mutationFn: (v: { id: string; enabled?: boolean; status?: 'active' | 'maintenance' }) => callData(adminApi.PATCH('/suppliers/{id}', { params: { path: { id: v.id } }, body: { enabled: v.enabled, status: v.status } })),
    onSuccess: done,
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">{t('supply.suppliers')}</Title>
      <Stack>
        {list.error ? <ErrorAlert error={list.error} /> : null}
        {patch.error ? <ErrorAlert error={patch.error} /> : null}
        <DataTable
          caption={t('supply.suppliers')}
          rows={list.data?.suppliers ?? []}
          rowKey={(s) => s.id}
          columns={[
            { key: 'name', header: t('supply.name'), cell: (s) => s.name },
            { key: 'adapter', header: t('supply.adapter'), cell: (s) => s.adapter },
            { key: 'state', header: t('supply.state'), cell: (s) => <Badge variant="light" color={!s.enabled ? 'gray' : s.status === 'maintenance' ? 'yellow' : s.health.consecutive_failures >= 3 ? 'red' : 'green'}>{!s.enabled ? t('home.disabled') : s.status === 'maintenance' ? t('home.maintenance') : s.health.consecutive_failures >= 3 ? t('home.failing') : t('home.healthy')}</Badge> },
            { key: 'err', header: t('home.lastError'), cell: (s) => s.health.last_error ?? '—' },
            { key: 'at', header: t('home.checked'), cell: (s) => formatDateTime(s.health.updated_at, i18n.language) },
            { key: 'routes', header: t('supply.routes'), align: 'right', cell: (s) => s.route_count },
            {
              key: 'x', header: t('actions'), align: 'right',
              cell: (s) => (
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <Button size="xs" variant="light" onClick={() => patch.mutate({ id: s.id, enabled: !s.enabled })}>{s.enabled ? t('supply.disable') : t('supply.enable')}</Button>
                  <Button size="xs" variant="light" color="yellow" onClick={() => patch.mutate({ id: s.id, status: s.status === 'maintenance' ? 'active' : 'maintenance' })}>{s.status === 'maintenance' ? t('supply.endMaintenance') : t('supply.maintenance')}</Button>
                </Group>
              ),
            },
          ]}
        />
        <form noValidate onSubmit={(e) => add.mutate(formValues(e), { onSuccess: () => (e.target as HTMLFormElement).reset() })}>
          <Group align="flex-start" wrap="wrap">
            <TextInput name="name" label={t('supply.name')} error={add.errors.fields.name} />
            <NativeSelect label={t('supply.adapter')} value={adapter} onChange={(e) => setAdapter(e.currentTarget.value as never)} data={['sandbox', 'upstream-v1']} />
            {adapter === 'upstream-v1' ? (
              <>
                <TextInput name="base_url" label={t('supply.baseUrl')} error={add.errors.fields.base_url} />
                <PasswordInput name="api_key" label={t('supply.apiKey')} autoComplete="off" error={add.errors.fields.api_key} />
                <PasswordInput name="api_secret" label={t('supply.apiSecret')} autoComplete="off" error={add.errors.fields.api_secret} />
              </>
            ) : null}
            <Button type="submit" mt={25} loading={add.isPending}>{t('supply.addSupplier')}</Button>
          </Group>
          {add.errors.general ? <Alert color="red" role="alert" mt="sm">{add.errors.general}</Alert> : null}
        </form>
      </Stack>
    </Card>
  );
}
