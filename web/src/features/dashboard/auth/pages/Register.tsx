import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { callData } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { formValues, useApiForm } from '../../../../shared/forms/useApiForm.js';
import { PublicLayout } from '../../../../shared/layout/AppLayout.js';
import { useStartSession } from '../hooks.js';

export default function Register() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const start = useStartSession();
  const form = useApiForm(['name', 'email', 'password'], {
    mutationFn: (body: { name: string; email: string; password: string }) => callData(dashboardApi.POST('/auth/register', { body })),
    onSuccess: (s) => {
      start(s.csrf_token);
      navigate('/registered', { replace: true });
    },
  });
  return (
    <PublicLayout title={t('appName')}>
      <Paper withBorder p="lg" radius="md">
        <form noValidate onSubmit={(e) => { const v = formValues(e); form.mutate({ name: v.name ?? '', email: v.email ?? '', password: v.password ?? '' }); }}>
          <Stack>
            <Title order={1} size="h2">{t('register.title')}</Title>
            {form.errors.general ? <Alert color="red" role="alert">{form.errors.general}</Alert> : null}
            <TextInput name="name" label={t('name')} autoComplete="organization" error={form.errors.fields.name} />
            <TextInput name="email" type="email" label={t('email')} autoComplete="email" error={form.errors.fields.email} />
            <PasswordInput name="password" label={t('password')} description={t('register.passwordHint')} autoComplete="new-password" error={form.errors.fields.password} />
            <Button type="submit" loading={form.isPending}>{t('register.submit')}</Button>
            <Text size="sm">
              {t('register.haveAccount')} <Anchor component={Link} to="/sign-in">{t('signIn.submit')}</Anchor>
            </Text>
          </Stack>
        </form>
      </Paper>
    </PublicLayout>
  );
}
