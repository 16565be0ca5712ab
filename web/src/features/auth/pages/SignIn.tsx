import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { callData } from '../../../shared/api/client.js';
import { dashboardApi } from '../../../shared/api/dashboard.js';
import { formValues, useApiForm } from '../../../shared/forms/useApiForm.js';
import { PublicLayout } from '../../../shared/layout/AppLayout.js';
import { safeNext, useStartSession } from '../hooks.js';

export default function SignIn() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const start = useStartSession();
  const next = safeNext(params.get('next'));
  const form = useApiForm(['email', 'password'], {
    mutationFn: (body: { email: string; password: string }) => callData(dashboardApi.POST('/auth/sign-in', { body })),
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
            <Title order={1} size="h2">{t('signIn.title')}</Title>
            {next !== '/' ? <Alert color="blue">{t('signIn.expired')}</Alert> : null}
            {form.errors.general ? <Alert color="red" role="alert">{form.errors.general}</Alert> : null}
            <TextInput name="email" type="email" label={t('email')} autoComplete="username" required error={form.errors.fields.email} />
            <PasswordInput name="password" label={t('password')} autoComplete="current-password" required error={form.errors.fields.password} />
            <Button type="submit" loading={form.isPending}>{t('signIn.submit')}</Button>
            <Text size="sm">
              {t('signIn.noAccount')} <Anchor component={Link} to="/register">{t('signIn.register')}</Anchor>
            </Text>
          </Stack>
        </form>
      </Paper>
    </PublicLayout>
  );
}
