import { Alert, Badge, Button, Card, Code, CopyButton, Group, Image, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formValues, useApiForm } from '../forms/useApiForm.js';
import { formatDateTime } from '../format/dates.js';
import { QueryState } from '../ui/QueryState.js';

/** The API calls of one app's two-factor routes (/auth/two-factor…). */
export interface TwoFactorApi {
  status(): Promise<{ enabled: boolean; enabled_at: string | null; required: boolean; recovery_codes_left: number }>;
  start(): Promise<{ secret: string; qr_code: string }>;
  confirm(code: string): Promise<{ recovery_codes: string[] }>;
  newCodes(code: string): Promise<{ recovery_codes: string[] }>;
  disable(body: { password?: string; code?: string }): Promise<unknown>;
}

/**
 * The Security page's two-factor part, the same in both apps: turn on (QR code, key, first
 * code), the recovery codes shown once (copy, download), new codes, turn off.
 */
export function TwoFactorPanel(props: { api: TwoFactorApi; queryKey: readonly unknown[]; onChanged?(): void }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const status = useQuery({ queryKey: props.queryKey, queryFn: props.api.status });
  const [codes, setCodes] = useState<string[] | null>(null);
  const changed = async () => {
    await qc.invalidateQueries({ queryKey: props.queryKey });
    props.onChanged?.();
  };
  if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  return (
    <QueryState query={status}>
      {(s) => (
        <Stack maw={560}>
          <Group>
            <Title order={2} size="h3">{t('twoFactor.title')}</Title>
            <Badge color={s.enabled ? 'green' : 'gray'} variant="light" data-testid="two-factor-state">{s.enabled ? t('twoFactor.statusOn') : t('twoFactor.statusOff')}</Badge>
          </Group>
          {s.required && !s.enabled ? <Alert color="orange" role="alert">{t('twoFactor.required')}</Alert> : null}
          {s.enabled ? (
            <>
              <Text>{t('twoFactor.onSince', { date: formatDateTime(s.enabled_at, i18n.language) })}</Text>
              <Text size="sm">{t('twoFactor.codesLeft', { n: s.recovery_codes_left })}</Text>
              <NewCodes api={props.api} onCodes={async (c) => { setCodes(c); await changed(); }} />
              <TurnOff api={props.api} onOff={changed} />
            </>
          ) : (
            <>
              <Text>{t('twoFactor.offText')}</Text>
              <Enrol api={props.api} onCodes={async (c) => { setCodes(c); await changed(); }} />
            </>
          )}
        </Stack>
      )}
    </QueryState>
  );
}

function Enrol(props: { api: TwoFactorApi; onCodes(codes: string[]): void }) {
  const { t } = useTranslation();
  const start = useMutation({ mutationFn: props.api.start });
  const confirm = useApiForm(['code'], { mutationFn: props.api.confirm, onSuccess: (r) => props.onCodes(r.recovery_codes) });
  if (!start.data) {
    return (
      <Stack align="flex-start">
        {start.error ? <Alert color="red" role="alert">{start.error.message}</Alert> : null}
        <Button onClick={() => start.mutate()} loading={start.isPending}>{t('twoFactor.turnOn')}</Button>
      </Stack>
    );
  }
  return (
    <Card withBorder>
      <form noValidate onSubmit={(e) => confirm.mutate(formValues(e).code ?? '')}>
        <Stack>
          <Text size="sm">{t('twoFactor.scan')}</Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Image src={start.data.qr_code} alt={t('twoFactor.qrAlt')} w={200} h={200} bg="white" />
            <Stack gap={4}>
              <Text size="sm" fw={500}>{t('twoFactor.secret')}</Text>
              <Code data-testid="two-factor-secret" style={{ wordBreak: 'break-all' }}>{start.data.secret}</Code>
              <CopyButton value={start.data.secret}>{({ copied, copy }) => <Button variant="subtle" size="xs" onClick={copy}>{copied ? t('copied') : t('copy')}</Button>}</CopyButton>
            </Stack>
          </SimpleGrid>
          <Text size="sm">{t('twoFactor.confirmText')}</Text>
          {confirm.errors.general ? <Alert color="red" role="alert">{confirm.errors.general}</Alert> : null}
          <TextInput name="code" label={t('twoFactor.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={7} required error={confirm.errors.fields.code} />
          <Button type="submit" loading={confirm.isPending}>{t('twoFactor.confirm')}</Button>
        </Stack>
      </form>
    </Card>
  );
}

/** The recovery codes, shown once: copy, download as text, then back to the page. */
function RecoveryCodes(props: { codes: string[]; onDone(): void }) {
  const { t } = useTranslation();
  const text = `${props.codes.join('\n')}\n`;
  const download = () => {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    a.download = 'recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(a.href);
  };
  return (
    <Stack maw={560}>
      <Title order={2} size="h3">{t('twoFactor.codesTitle')}</Title>
      <Alert color="yellow">{t('twoFactor.codesText')}</Alert>
      <Code block data-testid="recovery-codes">{text}</Code>
      <Group>
        <CopyButton value={text}>{({ copied, copy }) => <Button variant="light" onClick={copy}>{copied ? t('copied') : t('copy')}</Button>}</CopyButton>
        <Button variant="light" onClick={download}>{t('twoFactor.download')}</Button>
        <Button onClick={props.onDone}>{t('twoFactor.codesDone')}</Button>
      </Group>
    </Stack>
  );
}

function NewCodes(props: { api: TwoFactorApi; onCodes(codes: string[]): void }) {
  const { t } = useTranslation();
  const form = useApiForm(['code'], { mutationFn: props.api.newCodes, onSuccess: (r) => props.onCodes(r.recovery_codes) });
  return (
    <Card withBorder>
      <form noValidate onSubmit={(e) => form.mutate(formValues(e).code ?? '')}>
        <Stack>
          <Title order={3} size="h4">{t('twoFactor.newCodes')}</Title>
          <Text size="sm">{t('twoFactor.newCodesText')}</Text>
          {form.errors.general ? <Alert color="red" role="alert">{form.errors.general}</Alert> : null}
          <TextInput name="code" label={t('twoFactor.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={7} required error={form.errors.fields.code} />
          <Button type="submit" variant="light" loading={form.isPending}>{t('twoFactor.newCodes')}</Button>
        </Stack>
      </form>
    </Card>
  );
}

function TurnOff(props: { api: TwoFactorApi; onOff(): void }) {
  const { t } = useTranslation();
  const form = useApiForm(['password', 'code'], { mutationFn: props.api.disable, onSuccess: props.onOff });
  return (
    <Card withBorder>
      <form
        noValidate
        onSubmit={(e) => {
          const v = formValues(e);
          form.mutate(v.password ? { password: v.password } : { code: v.code ?? '' });
        }}
      >
        <Stack>
          <Title order={3} size="h4">{t('twoFactor.turnOff')}</Title>
          <Text size="sm">{t('twoFactor.turnOffText')}</Text>
          {form.errors.general ? <Alert color="red" role="alert">{form.errors.general}</Alert> : null}
          <PasswordInput name="password" label={t('twoFactor.password')} autoComplete="current-password" error={form.errors.fields.password} />
          <TextInput name="code" label={t('twoFactor.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={7} error={form.errors.fields.code} />
          <Button type="submit" color="red" variant="light" loading={form.isPending}>{t('twoFactor.turnOff')}</Button>
        </Stack>
      </form>
    </Card>
  );
}
