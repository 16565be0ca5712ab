import { Alert, Badge, Button, Card, Code, Group, NativeSelect, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formatDateTime } from '../../../../shared/format/dates.js';
import { formValues, useApiForm } from '../../../../shared/forms/useApiForm.js';
import { useAdminMoney } from '../../ui/useAdminMoney.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useCan } from '../../auth/hooks.js';

type Adapter = 'sandbox' | 'upstream-v1' | 'digiflazz';
const ADAPTERS: Adapter[] = ['sandbox', 'upstream-v1', 'digiflazz'];
const orNone = (v: string | undefined) => (v && v.trim() !== '' ? v : undefined);

/** What POST /suppliers takes for each adapter, from the form's fields. */
function supplierBody(adapter: Adapter, v: Record<string, string>) {
  const name = v.name ?? '';
  if (adapter === 'sandbox') return { name, adapter };
  if (adapter === 'upstream-v1') return { name, adapter, credentials: { base_url: v.base_url ?? '', api_key: v.api_key ?? '', api_secret: v.api_secret ?? '' } };
  const threshold = orNone(v.balance_threshold);
  return {
    name, adapter,
    credentials: { username: v.username ?? '', api_key: v.api_key ?? '', webhook_secret: orNone(v.webhook_secret), base_url: orNone(v.base_url) },
    ...(threshold === undefined ? {} : { balance_threshold: Number(threshold) }),
  };
}

const BREAKER_COLOR = { closed: 'green', open: 'red', half_open: 'orange' } as const;

/** Suppliers with health and circuit breaker; add one (credentials are write-only: sent, never shown again); sync a price list. */
export function SuppliersCard() {
  const { t, i18n } = useTranslation();
  const may = useCan()('supply.manage');
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['admin', 'suppliers'], queryFn: () => callData(adminApi.GET('/suppliers')) });
  const money = useAdminMoney();
  const [adapter, setAdapter] = useState<Adapter>('sandbox');
  const done = () => void qc.invalidateQueries({ queryKey: ['admin'] });
  const add = useApiForm(['name', 'base_url', 'api_key', 'api_secret', 'username', 'webhook_secret', 'balance_threshold'], {
    mutationFn: (v: Record<string, string>) => callData(adminApi.POST('/suppliers', { body: supplierBody(adapter, v) })),
    onSuccess: done,
  });
  const patch = useMutation({
    mutationFn: (v: { id: string; enabled?: boolean; status?: 'active' | 'maintenance' }) => callData(adminApi.PATCH('/suppliers/{id}', { params: { path: { id: v.id } }, body: { enabled: v.enabled, status: v.status } })),
    onSuccess: done,
  });
  const reset = useMutation({
    mutationFn: (id: string) => callData(adminApi.POST('/suppliers/{id}/breaker/reset', { params: { path: { id } } })),
    onSuccess: done,
  });
  const sync = useMutation({
    mutationFn: (s: { id: string; name: string }) => callData(adminApi.POST('/suppliers/{id}/sync', { params: { path: { id: s.id } } })).then((r) => ({ ...r, name: s.name })),
    onSuccess: done,
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">{t('supply.suppliers')}</Title>
      <Stack>
        {list.error ? <ErrorAlert error={list.error} /> : null}
        {patch.error ? <ErrorAlert error={patch.error} /> : null}
        {sync.error ? <ErrorAlert error={sync.error} /> : null}
        {reset.error ? <ErrorAlert error={reset.error} /> : null}
        {sync.data ? (
          <Alert color="green" role="status">
            {t('supply.synced', { name: sync.data.name, skus: sync.data.skus, added: sync.data.added.length, removed: sync.data.removed.length, changed: sync.data.changed.length, below: sync.data.below_cost.length })}
          </Alert>
        ) : null}
        <DataTable
          caption={t('supply.suppliers')}
          rows={list.data?.suppliers ?? []}
          rowKey={(s) => s.id}
          columns={[
            { key: 'name', header: t('supply.name'), cell: (s) => s.name },
            { key: 'adapter', header: t('supply.adapter'), cell: (s) => t(`supply.adapters.${s.adapter}`) },
            {
              key: 'state', header: t('supply.state'),
              cell: (s) => {
                const b = s.breaker;
                return (
                  <Stack gap={2} miw={150} maw={260}>
                    <Badge w="fit-content" style={{ flexShrink: 0 }} variant="light" color={!s.enabled ? 'gray' : s.status === 'maintenance' ? 'yellow' : BREAKER_COLOR[b.state]}>
                      {!s.enabled ? t('home.disabled') : s.status === 'maintenance' ? t('home.maintenance') : t(`supply.breaker_${b.state}`)}
                    </Badge>
                    {b.reason ? <Text size="xs">{b.reason}</Text> : null}
                    {b.since ? <Text size="xs" c="dimmed">{t('supply.breakerSince', { at: formatDateTime(b.since, i18n.language) })}</Text> : null}
                    {b.state === 'open' && b.probe_at ? <Text size="xs" c="dimmed">{t('supply.probeAt', { at: formatDateTime(b.probe_at, i18n.language) })}</Text> : null}
                    {b.state === 'half_open' ? <Text size="xs" c="dimmed">{t('supply.probeOrders', { answers: b.probe_answers, orders: b.probe_orders })}</Text> : null}
                  </Stack>
                );
              },
            },
            { key: 'err', header: t('home.lastError'), cell: (s) => <Text size="sm" miw={140}>{s.health.last_error ?? '—'}</Text> },
            { key: 'at', header: t('home.checked'), cell: (s) => formatDateTime(s.health.updated_at, i18n.language) },
            { key: 'routes', header: t('supply.routes'), align: 'right', cell: (s) => s.route_count },
            {
              key: 'x', header: t('actions'), align: 'right',
              cell: (s) => !may ? null : (
                <Group gap={4} justify="flex-end" maw={240} ml="auto">
                  {s.breaker.state !== 'closed' ? <Button size="xs" variant="light" color="red" loading={reset.isPending && reset.variables === s.id} onClick={() => reset.mutate(s.id)}>{t('supply.resetBreaker')}</Button> : null}
                  <Button size="xs" variant="light" onClick={() => patch.mutate({ id: s.id, enabled: !s.enabled })}>{s.enabled ? t('supply.disable') : t('supply.enable')}</Button>
                  {s.adapter === 'digiflazz' ? <Button size="xs" variant="light" loading={sync.isPending && sync.variables?.id === s.id} onClick={() => sync.mutate({ id: s.id, name: s.name })}>{t('supply.sync')}</Button> : null}
                  <Button size="xs" variant="light" color="yellow" onClick={() => patch.mutate({ id: s.id, status: s.status === 'maintenance' ? 'active' : 'maintenance' })}>{s.status === 'maintenance' ? t('supply.endMaintenance') : t('supply.maintenance')}</Button>
                </Group>
              ),
            },
          ]}
        />
        {(list.data?.suppliers ?? []).filter((s) => s.webhook_url).map((s) => (
          <Text key={s.id} size="sm">{t('supply.webhookUrlOf', { name: s.name })} <Code style={{ wordBreak: 'break-all' }}>{s.webhook_url}</Code></Text>
        ))}
        {may ? <form noValidate onSubmit={(e) => add.mutate(formValues(e), { onSuccess: () => (e.target as HTMLFormElement).reset() })}>
          <Group align="flex-start" wrap="wrap">
            <TextInput name="name" label={t('supply.name')} error={add.errors.fields.name} />
            <NativeSelect label={t('supply.adapter')} value={adapter} onChange={(e) => setAdapter(e.currentTarget.value as Adapter)} data={ADAPTERS.map((x) => ({ value: x, label: t(`supply.adapters.${x}`) }))} />
            {adapter === 'upstream-v1' ? (
              <>
                <TextInput name="base_url" label={t('supply.baseUrl')} error={add.errors.fields.base_url} />
                <PasswordInput name="api_key" label={t('supply.apiKey')} autoComplete="off" error={add.errors.fields.api_key} />
                <PasswordInput name="api_secret" label={t('supply.apiSecret')} autoComplete="off" error={add.errors.fields.api_secret} />
              </>
            ) : null}
            {adapter === 'digiflazz' ? (
              <>
                <TextInput name="username" label={t('supply.username')} autoComplete="off" error={add.errors.fields.username} />
                <PasswordInput name="api_key" label={t('supply.apiKey')} autoComplete="off" error={add.errors.fields.api_key} />
                <PasswordInput name="webhook_secret" label={t('supply.webhookSecret')} autoComplete="off" error={add.errors.fields.webhook_secret} />
                <TextInput name="base_url" label={t('supply.baseUrlOptional')} error={add.errors.fields.base_url} />
                <TextInput name="balance_threshold" label={t('supply.balanceThreshold', { currency: money.currency })} inputMode="decimal" error={add.errors.fields.balance_threshold} />
              </>
            ) : null}
            <Button type="submit" mt={25} loading={add.isPending}>{t('supply.addSupplier')}</Button>
          </Group>
          {add.errors.general ? <Alert color="red" role="alert" mt="sm">{add.errors.general}</Alert> : null}
        </form> : null}
      </Stack>
    </Card>
  );
}
