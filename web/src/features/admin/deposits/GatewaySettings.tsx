import { Badge, Button, Card, Code, Group, Modal, NativeSelect, PasswordInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, type AdminSchemas } from '../../../shared/api/admin.js';
import { callData } from '../../../shared/api/client.js';
import { formatMoney } from '../../../shared/format/money.js';
import { formValues, useApiForm } from '../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../shared/table/DataTable.js';
import { ErrorAlert } from '../../../shared/ui/QueryState.js';
import { useCan } from '../auth/hooks.js';

type Method = AdminSchemas['schemas']['PaymentMethod'];

/** Midtrans keys and environment, and each payment method's bounds and fee rule. */
export function GatewaySettings() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const mayManage = useCan()('payments.manage');
  const me = useQuery({ queryKey: ['admin', 'me'], queryFn: () => callData(adminApi.GET('/me')) });
  const money = (v: number | string) => formatMoney(v, me.data?.currency ?? 'IDR', i18n.language);
  const settings = useQuery({ queryKey: ['admin', 'payment-gateway'], queryFn: () => callData(adminApi.GET('/payment-gateway')) });
  const methods = useQuery({ queryKey: ['admin', 'payment-methods'], queryFn: () => callData(adminApi.GET('/payment-methods')) });
  const [editing, setEditing] = useState<Method | null>(null);
  const save = useApiForm(['environment', 'server_key', 'client_key', 'expiry_minutes'], {
    mutationFn: (v: Record<string, string>) => callData(adminApi.PUT('/payment-gateway', {
      body: {
        environment: v.environment as 'sandbox' | 'production', client_key: v.client_key?.trim() || null, expiry_minutes: Number(v.expiry_minutes),
        ...(v.server_key?.trim() ? { server_key: v.server_key.trim() } : {}),
      },
    })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['admin', 'payment-gateway'] }),
  });
  const saveMethod = useApiForm(['enabled', 'min_amount', 'max_amount', 'fee_fixed', 'fee_bps', 'fee_mode'], {
    mutationFn: (v: { code: string; body: Record<string, unknown> }) => callData(adminApi.PUT('/payment-methods/{code}', { params: { path: { code: v.code as never } }, body: v.body })),
    onSuccess: () => {
      setEditing(null);
      void qc.invalidateQueries({ queryKey: ['admin', 'payment-methods'] });
    },
  });
  const s = settings.data;
  return (
    <Stack>
      <Card withBorder>
        <Title order={3} size="h4" mb="xs">{t('gatewayAdmin.settings')}</Title>
        <Text size="sm" mb="sm">{t('gatewayAdmin.settingsIntro')}</Text>
        {settings.error ? <ErrorAlert error={settings.error} /> : null}
        {s ? (
          <form key={s.updated_at ?? 'new'} noValidate onSubmit={(e) => save.mutate(formValues(e))}>
            <Stack maw={520}>
              <Text size="sm">{t('gatewayAdmin.notificationUrl')}: <Code data-testid="notification-url">{s.notification_url}</Code></Text>
              <NativeSelect name="environment" label={t('gatewayAdmin.environment')} defaultValue={s.environment} disabled={!mayManage}
                data={[{ value: 'sandbox', label: t('gatewayAdmin.sandbox') }, { value: 'production', label: t('gatewayAdmin.production') }]} error={save.errors.fields.environment} />
              <PasswordInput name="server_key" label={t('gatewayAdmin.serverKey')} autoComplete="off" disabled={!mayManage}
                description={`${t(`gatewayAdmin.serverKeySource.${s.server_key_source ?? 'none'}`)}. ${t('gatewayAdmin.serverKeyHelp')}`} error={save.errors.fields.server_key} />
              <TextInput name="client_key" label={t('gatewayAdmin.clientKey')} defaultValue={s.client_key ?? ''} disabled={!mayManage} error={save.errors.fields.client_key} />
              <TextInput name="expiry_minutes" type="number" label={t('gatewayAdmin.expiry')} defaultValue={String(s.expiry_minutes)} disabled={!mayManage} error={save.errors.fields.expiry_minutes} />
              {save.errors.general ? <ErrorAlert error={save.error} /> : null}
              {mayManage ? (
                <Group>
                  <Button type="submit" loading={save.isPending}>{t('save')}</Button>
                  {save.isSuccess ? <Text size="sm" c="green" role="status">{t('gatewayAdmin.saved')}</Text> : null}
                </Group>
              ) : null}
            </Stack>
          </form>
        ) : null}
      </Card>
      <Card withBorder>
        {methods.error ? <ErrorAlert error={methods.error} /> : null}
        <DataTable
          caption={t('gatewayAdmin.methods')}
          rows={methods.data?.methods ?? []}
          rowKey={(m) => m.code}
          columns={[
            { key: 'label', header: t('gatewayAdmin.method'), cell: (m) => m.label },
            { key: 'enabled', header: t('gatewayAdmin.enabled'), cell: (m) => <Badge color={m.enabled ? 'green' : 'gray'} variant="light">{m.enabled ? t('gatewayAdmin.yes') : t('gatewayAdmin.no')}</Badge> },
            { key: 'min', header: t('gatewayAdmin.min'), align: 'right', cell: (m) => money(m.min_amount) },
            { key: 'max', header: t('gatewayAdmin.max'), align: 'right', cell: (m) => money(m.max_amount) },
            { key: 'fee', header: t('gatewayAdmin.fee'), cell: (m) => `${money(m.fee_fixed)} + ${(m.fee_bps / 100).toFixed(2)}%` },
            { key: 'mode', header: t('gatewayAdmin.feeMode'), cell: (m) => t(`gatewayAdmin.feeModes.${m.fee_mode}`) },
            ...(mayManage ? [{ key: 'x', header: t('actions'), cell: (m: Method) => <Button size="xs" variant="default" onClick={() => { saveMethod.reset(); setEditing(m); }} aria-label={`${t('gatewayAdmin.edit')} ${m.label}`}>{t('gatewayAdmin.edit')}</Button> }] : []),
          ]}
        />
      </Card>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t('gatewayAdmin.editMethod', { label: editing?.label ?? '' })} closeButtonProps={{ 'aria-label': t('gatewayAdmin.close') }}>
        {editing ? (
          <form noValidate onSubmit={(e) => {
            const v = formValues(e);
            saveMethod.mutate({
              code: editing.code,
              body: { enabled: v.enabled === 'on', min_amount: Number(v.min_amount), max_amount: Number(v.max_amount), fee_fixed: Number(v.fee_fixed), fee_bps: Number(v.fee_bps), fee_mode: v.fee_mode },
            });
          }}>
            <Stack>
              <Switch name="enabled" label={t('gatewayAdmin.enabled')} defaultChecked={editing.enabled} />
              <TextInput name="min_amount" type="number" label={t('gatewayAdmin.min')} defaultValue={String(editing.min_amount)} error={saveMethod.errors.fields.min_amount} />
              <TextInput name="max_amount" type="number" label={t('gatewayAdmin.max')} defaultValue={String(editing.max_amount)} error={saveMethod.errors.fields.max_amount} />
              <TextInput name="fee_fixed" type="number" label={t('gatewayAdmin.feeFixed')} defaultValue={String(editing.fee_fixed)} error={saveMethod.errors.fields.fee_fixed} />
              <TextInput name="fee_bps" type="number" label={t('gatewayAdmin.feeBps')} defaultValue={String(editing.fee_bps)} error={saveMethod.errors.fields.fee_bps} />
              <NativeSelect name="fee_mode" label={t('gatewayAdmin.feeMode')} defaultValue={editing.fee_mode}
                data={[{ value: 'pass', label: t('gatewayAdmin.feeModes.pass') }, { value: 'absorb', label: t('gatewayAdmin.feeModes.absorb') }]} error={saveMethod.errors.fields.fee_mode} />
              {saveMethod.errors.general ? <ErrorAlert error={saveMethod.error} /> : null}
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setEditing(null)}>{t('cancel')}</Button>
                <Button type="submit" loading={saveMethod.isPending}>{t('save')}</Button>
              </Group>
            </Stack>
          </form>
        ) : null}
      </Modal>
    </Stack>
  );
}

export default GatewaySettings;
