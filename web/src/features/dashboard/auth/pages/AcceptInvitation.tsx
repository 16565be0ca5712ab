import { Alert, Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError, callData } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { formValues, useApiForm } from '../../../../shared/forms/useApiForm.js';
import { PublicLayout } from '../../../../shared/layout/AppLayout.js';
import { useStartSession } from '../hooks.js';

/** The operator's one-time link: set the password and be signed in, like sign-in. */
export default function AcceptInvitation() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const start = useStartSession();
  const token = params.get('token') ?? '';
  const form = useApiForm(['password'], {
    mutationFn: (body: { token: string; password: string }) => callData(dashboardApi.POST('/auth/accept-invitation', { body })),
    onSuccess: (s) => {
      start(s.csrf_token);
      navigate('/', { replace: true });
    },
  });
  const tokenError = form.error instanceof ApiError && (form.error.code === 'INVALID_INVITATION' || /token/i.test(form.error.message)) ? form.error.message : null;
  return (
    <PublicLayout title={t('appName')}>
      <Paper withBorder p="lg" radius="md">
        <form noValidate onSubmit={(e) => form.mutate({ token, password: formValues(e).password ?? '' })}>
          <Stack>
            <Title order={1} size="h2">{t('invitation.title')}</Title>
            {!token ? <Alert color="red" role="alert">{t('invitation.noToken')}</Alert> : <Text>{t('invitation.text')}</Text>}
            {tokenError ? <Alert color="red" role="alert">{tokenError}</Alert> : form.errors.general ? <Alert color="red" role="alert">{form.errors.general}</Alert> : null}
            <PasswordInput name="password" label={t('password')} description={t('register.passwordHint')} autoComplete="new-password" error={tokenError ? undefined : form.errors.fields.password} />
            <Button type="submit" loading={form.isPending} disabled={!token}>{t('invitation.submit')}</Button>
          </Stack>
        </form>
      </Paper>
    </PublicLayout>
  );
}
