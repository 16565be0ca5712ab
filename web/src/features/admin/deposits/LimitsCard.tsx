import { Alert, Button, Card, Checkbox, Code, Group, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../shared/api/admin.js';
import { callData } from '../../../shared/api/client.js';
import { useApiForm } from '../../../shared/forms/useApiForm.js';
import { useCan } from '../auth/hooks.js';

const KEYS = ['min_amount', 'max_amount', 'ticket_hours', 'daily_cap', 'review_above', 'webhook_signature_header'] as const;
type Form = Record<(typeof KEYS)[number], string> & { credit_unique_code: boolean };

/** Limits, ticket lifetime, review amount, and the mutation webhook (URL, header, secret). */
export function LimitsCard() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const can = useCan()('deposits.manage');
  const s = useQuery({ queryKey: ['admin', 'deposit-settings'], queryFn: () => callData(adminApi.GET('/deposit-settings')) });
  const [form, setForm] = useState<Form | null>(null);
  const [secret, setSecret] = useState('');
  useEffect(() => {
    if (s.data) setForm({ ...Object.fromEntries(KEYS.map((k) => [k, s.data[k] === null ? '' : String(s.data[k])])) as Record<(typeof KEYS)[number], string>, credit_unique_code: s.data.credit_unique_code });
  }, [s.data]);
  const num = (v: string) => (v.trim() === '' ? Number.NaN : Number(v.replace(/\s/g, '')));
  const save = useApiForm([...KEYS], {
    mutationFn: (f: Form) => callData(adminApi.PUT('/deposit-settings', { body: {
      min_amount: num(f.min_amount), max_amount: num(f.max_amount), ticket_hours: num(f.ticket_hours), credit_unique_code: f.credit_unique_code,
      daily_cap: f.daily_cap.trim() ? num(f.daily_cap) : null, review_above: f.review_above.trim() ? num(f.review_above) : null, webhook_signature_header: f.webhook_signature_header,
    } })),
    onSuccess: (d) => { qc.setQueryData(['admin', 'deposit-settings'], d); notifications.show({ message: t('deposits.settings.saved'), color: 'green' }); },
  });
  const setSecretM = useApiForm(['secret'], {
    mutationFn: () => callData(adminApi.PUT('/deposit-settings/webhook-secret', { body: { secret } })),
    onSuccess: () => { setSecret(''); void qc.invalidateQueries({ queryKey: ['admin', 'deposit-settings'] }); notifications.show({ message: t('deposits.settings.saved'), color: 'green' }); },
  });
  const input = (k: (typeof KEYS)[number], label: string) => (
    <TextInput label={label} value={form?.[k] ?? ''} readOnly={!can} inputMode={k === 'webhook_signature_header' ? undefined : 'numeric'}
      onChange={(e) => { const v = e.currentTarget.value; setForm((x) => x && { ...x, [k]: v }); }} error={save.errors.fields[k]} />
  );
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">{t('deposits.settings.limits')}</Title>
      <form noValidate onSubmit={(e) => { e.preventDefault(); if (form) save.mutate(form); }}>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {input('min_amount', t('deposits.settings.min'))}
            {input('max_amount', t('deposits.settings.max'))}
            {input('ticket_hours', t('deposits.settings.hours'))}
            {input('daily_cap', t('deposits.settings.dailyCap'))}
            {input('review_above', t('deposits.settings.reviewAbove'))}
            {input('webhook_signature_header', t('deposits.settings.header'))}
          </SimpleGrid>
          <Checkbox label={t('deposits.settings.creditCode')} checked={form?.credit_unique_code ?? false} disabled={!can} onChange={(e) => { const v = e.currentTarget.checked; setForm((x) => x && { ...x, credit_unique_code: v }); }} />
          {save.errors.general ? <Alert color="red" role="alert">{save.errors.general}</Alert> : null}
          {can ? <Group><Button type="submit" loading={save.isPending} disabled={!form}>{t('deposits.settings.save')}</Button></Group> : null}
        </Stack>
      </form>
      <Title order={3} size="h5" mt="lg" mb="xs">{t('deposits.settings.webhook')}</Title>
      <Text size="sm">{t('deposits.settings.webhookUrl')}: <Code>{s.data?.webhook_url ?? '…'}</Code></Text>
      <Text size="sm" mb="xs">{s.data?.webhook_secret_set ? t('deposits.settings.secretSet') : t('deposits.settings.secretNotSet')}</Text>
      {can ? (
        <form noValidate onSubmit={(e) => { e.preventDefault(); setSecretM.mutate(undefined); }}>
          <Group align="flex-end">
            <PasswordInput label={t('deposits.settings.secret')} value={secret} onChange={(e) => setSecret(e.currentTarget.value)} error={setSecretM.errors.fields.secret ?? setSecretM.errors.general} autoComplete="off" />
            <Button type="submit" variant="light" loading={setSecretM.isPending} disabled={!secret}>{t('deposits.settings.setSecret')}</Button>
          </Group>
        </form>
      ) : null}
    </Card>
  );
}
