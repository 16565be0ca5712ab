import { Alert, Button, Card, Stack, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { useApiForm } from '../../../../shared/forms/useApiForm.js';
import { useCan } from '../../auth/hooks.js';
import { useLoadedForm } from '../../../../shared/forms/useLoadedForm.js';
import type { Reseller } from './types.js';

/** The reseller's callback URL (empty clears it). */
export function CallbackCard({ reseller: r }: { reseller: Reseller }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const may = useCan()('resellers.integration');
  const form = useLoadedForm({ callback_url: r.callback_url ?? '' });
  const save = useApiForm(['callback_url'], {
    mutationFn: (value: string) => callData(adminApi.PUT('/resellers/{id}/callback-url', { params: { path: { id: r.id } }, body: { callback_url: value.trim() === '' ? null : value.trim() } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['admin', 'reseller', r.id] }),
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">{t('resellers.detail.callback')}</Title>
      <form noValidate onSubmit={(e) => { e.preventDefault(); save.mutate(form.value('callback_url') ?? ''); }}>
        <Stack>
          <TextInput label={t('resellers.detail.callbackUrl')} {...form.text('callback_url')} readOnly={!may} error={save.errors.fields.callback_url} />
          {save.isSuccess ? <Alert color="green" role="status">{t('resellers.detail.callbackSaved')}</Alert> : null}
          {may ? <div><Button type="submit" loading={save.isPending}>{t('resellers.detail.setCallback')}</Button></div> : null}
        </Stack>
      </form>
    </Card>
  );
}
