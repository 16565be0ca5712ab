import { Alert, Button, Card, PasswordInput, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { callData } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { formValues, useApiForm } from '../../../../shared/forms/useApiForm.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';

export default function ChangePassword() {
  const { t } = useTranslation();
  const form = useApiForm(['current_password', 'new_password'], {
    mutationFn: (body: { current_password: string; new_password: string }) => callData(dashboardApi.POST('/me/password', { body })),
  });
  // A wrong current password is the API's INVALID_CREDENTIALS: it belongs by that field.
  const currentError = form.error && 'code' in form.error && form.error.code === 'INVALID_CREDENTIALS' ? form.error.message : form.errors.fields.current_password;
  return (
    <>
      <PageTitle>{t('changePassword.title')}</PageTitle>
      <Card withBorder maw={480}>
        <form
          noValidate
          onSubmit={(e) => {
            const v = formValues(e);
            form.mutate({ current_password: v.current_password ?? '', new_password: v.new_password ?? '' }, { onSuccess: () => (e.target as HTMLFormElement).reset() });
          }}
        >
          <Stack>
            {form.isSuccess ? <Alert color="green">{t('changePassword.done')}</Alert> : null}
            {form.errors.general && !currentError ? <Alert color="red" role="alert">{form.errors.general}</Alert> : null}
            <PasswordInput name="current_password" label={t('changePassword.current')} autoComplete="current-password" error={currentError} />
            <PasswordInput name="new_password" label={t('changePassword.new')} description={t('register.passwordHint')} autoComplete="new-password" error={form.errors.fields.new_password} />
            <Button type="submit" loading={form.isPending}>{t('changePassword.submit')}</Button>
          </Stack>
        </form>
      </Card>
    </>
  );
}
