import { Alert, Button, Card, PasswordInput, Stack } from '@mantine/core';
import { EmailSettings, type EmailSettingsApi } from '../../../../shared/ui/EmailSettings.js';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formValues, useApiForm } from '../../../../shared/forms/useApiForm.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';

const emailApi: EmailSettingsApi = {
  language: () => callData(adminApi.GET('/me/language')),
  setLanguage: (language) => callData(adminApi.PUT('/me/language', { body: { language } })),
  enabled: () => callData(adminApi.GET('/me/notifications')),
  setEnabled: (enabled) => callData(adminApi.PUT('/me/notifications', { body: { enabled } })),
};

/** The operator's own password and email settings. */
export default function Account() {
  const { t } = useTranslation();
  const form = useApiForm(['current_password', 'new_password'], {
    mutationFn: (body: { current_password: string; new_password: string }) => callData(adminApi.POST('/me/password', { body })),
  });
  return (
    <>
      <PageTitle>{t('auth.changePassword')}</PageTitle>
      <Card withBorder maw={480}>
        <form
          noValidate
          onSubmit={(e) => {
            const v = formValues(e);
            form.mutate({ current_password: v.current_password ?? '', new_password: v.new_password ?? '' }, { onSuccess: () => (e.target as HTMLFormElement).reset() });
          }}
        >
          <Stack>
            {form.isSuccess ? <Alert color="green" role="status">{t('auth.passwordChanged')}</Alert> : null}
            {form.errors.general ? <Alert color="red" role="alert">{form.errors.general}</Alert> : null}
            <PasswordInput name="current_password" label={t('auth.currentPassword')} autoComplete="current-password" error={form.errors.fields.current_password} />
            <PasswordInput name="new_password" label={t('auth.newPassword')} description={t('auth.passwordHint')} autoComplete="new-password" error={form.errors.fields.new_password} />
            <Button type="submit" loading={form.isPending}>{t('auth.changePassword')}</Button>
          </Stack>
        </form>
      </Card>
      <Stack mt="lg">
        <EmailSettings api={emailApi} />
      </Stack>
    </>
  );
}
