import { Alert, Button, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { formValues, useApiForm } from '../../../../shared/forms/useApiForm.js';
import { PublicLayout } from '../../../../shared/layout/AppLayout.js';
import { safeNext } from '../../../auth/hooks.js';
import { useStartOperatorSession } from '../hooks.js';

export default function SignIn() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const start = useStartOperatorSession();
  const next = safeNext(params.get('next'));
  const form = useApiForm(['email', 'password'], {
    mutationFn: (body: { email: string; password: string }) => callData(adminApi.POST('/auth/sign-in', { body })),
    onSuccess: (s) => {
      start(s.csrf_token);
      navigate(next, { replace: true });
    },
  });
  return (
    <PublicLayout title={t('appName')}>
      <Paper withBorder p="lg" radius="md">
        <form onSubmit={(e) => { const v = formValues(e); form.mutate({ email: v.email ?? '', password: v.password ?? '' }); }}>
          <Stack>
            <Title order={1} size="h2">{t('auth.signIn')}</Title>
            {next !== '/' ? <Alert color="blue">{t('auth.expired')}</Alert> : null}
            {form.errors.general ? <Alert color="red" role="alert">{form.errors.general}</Alert> : null}
            <TextInput name="email" type="email" label={t('auth.email')} autoComplete="username" required error={form.errors.fields.email} />
            <PasswordInput name="password" label={t('auth.password')} autoComplete="current-password" required error={form.errors.fields.password} />
            <Button type="submit" loading={form.isPending}>{t('auth.signIn')}</Button>
          </Stack>
        </form>
      </Paper>
    </PublicLayout>
  );
}
