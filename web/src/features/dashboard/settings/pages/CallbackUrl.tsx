import { Alert, Badge, Button, Card, Code, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callData } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { useApiForm } from '../../../../shared/forms/useApiForm.js';
import { useLoadedForm } from '../../../../shared/forms/useLoadedForm.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useProfile } from '../../../../shared/ui/useCurrency.js';

export default function CallbackUrl() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const me = useProfile();
  const form = useLoadedForm(me.data && { callback_url: me.data.callback_url ?? '' });
  const save = useApiForm(['callback_url'], {
    mutationFn: (url: string) => callData(dashboardApi.PUT('/me/callback-url', { body: { callback_url: url.trim() === '' ? null : url.trim() } })),
    onSuccess: () => {
      notifications.show({ message: t('callback.saved'), color: 'green' });
      void qc.invalidateQueries({ queryKey: ['me'] });
      void qc.invalidateQueries({ queryKey: ['overview'] });
    },
  });
  const test = useMutation({ mutationFn: () => callData(dashboardApi.POST('/callback-url/test', { body: {} })) });
  const r = test.data;
  return (
    <>
      <PageTitle>{t('callback.title')}</PageTitle>
      <Stack>
        <Card withBorder>
          <Text size="sm" mb="sm">{t('callback.intro')}</Text>
          <form noValidate onSubmit={(e) => { e.preventDefault(); if (form.ready) save.mutate(form.value('callback_url') ?? ''); }}>
            <Stack gap="sm">
              <TextInput label={t('callback.url')} placeholder={form.ready ? 'https://example.com/topup-callback' : t('loading')} {...form.text('callback_url')} error={save.errors.fields.callback_url} />
              {save.errors.general ? <ErrorAlert error={save.error} /> : null}
              {me.error ? <ErrorAlert error={me.error} /> : null}
              <Group>
                <Button type="submit" loading={save.isPending} disabled={!form.ready}>{t('save')}</Button>
                <Button variant="default" disabled={!form.ready} onClick={() => { form.set('callback_url', ''); save.mutate(''); }}>{t('callback.clear')}</Button>
              </Group>
            </Stack>
          </form>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="xs">{t('callback.test')}</Title>
          <Text size="sm" mb="sm">{t('callback.testIntro')}</Text>
          <Button variant="light" onClick={() => test.mutate()} loading={test.isPending} disabled={!me.data?.callback_url}>{t('callback.test')}</Button>
          {test.error ? <ErrorAlert error={test.error} /> : null}
          {r ? (
            <Stack gap="xs" mt="md" data-testid="test-callback-result">
              <Group gap="xs">
                <Badge color={r.delivered ? 'green' : 'red'}>{r.delivered ? t('callback.delivered') : t('callback.notDelivered')}</Badge>
                <Text size="sm">{r.url}</Text>
                <Text size="sm">{t('orders.httpStatus')}: {r.http_status ?? '—'}</Text>
                <Text size="sm">{t('orders.ms', { ms: r.duration_ms })}</Text>
              </Group>
              {r.error ? <Alert color="red">{r.error}</Alert> : null}
              <Text size="sm" fw={600}>{t('callback.receiverSaid')}</Text>
              <Code block>{r.response_excerpt ?? '—'}</Code>
              <Text size="sm" fw={600}>{t('callback.payload')}</Text>
              <Code block>{JSON.stringify(r.payload, null, 2)}</Code>
            </Stack>
          ) : null}
        </Card>
      </Stack>
    </>
  );
}
