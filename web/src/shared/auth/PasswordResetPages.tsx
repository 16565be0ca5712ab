import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../api/client.js';
import { formValues, useApiForm } from '../forms/useApiForm.js';
import { PublicLayout } from '../layout/AppLayout.js';

/**
 * The forgotten-password pages of both apps (words under `resetPassword` in each app's
 * messages): ask for a link by email, then set a new password with the link's token.
 */
export function ForgotPasswordPage({ request }: { request(body: { email: string }): Promise<unknown> }) {
  const { t } = useTranslation();
  const [sent, setSent] = useState(false);
  const form = useApiForm(['email'], { mutationFn: request, onSuccess: () => setSent(true) });
  return (
    <PublicLayout title={t('appName')}>
      <Paper withBorder p="lg" radius="md">
        <form noValidate onSubmit={(e) => form.mutate({ email: formValues(e).email ?? '' })}>
          <Stack>
            <Title order={1} size="h2">{t('resetPassword.forgotTitle')}</Title>
            {sent ? <Alert color="green" role="status">{t('resetPassword.sent')}</Alert> : <Text>{t('resetPassword.forgotText')}</Text>}
            {form.errors.general ? <Alert color="red" role="alert">{form.errors.general}</Alert> : null}
            <TextInput name="email" type="email" label={t('resetPassword.email')} autoComplete="username" required error={form.errors.fields.email} />
            <Button type="submit" loading={form.isPending}>{t('resetPassword.send')}</Button>
            <Anchor component={Link} to="/sign-in" size="sm">{t('resetPassword.backToSignIn')}</Anchor>
          </Stack>
        </form>
      </Paper>
    </PublicLayout>
  );
}

export function ResetPasswordPage({ reset }: { reset(body: { token: string; password: string }): Promise<unknown> }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState(false);
  const form = useApiForm(['password'], { mutationFn: reset, onSuccess: () => setDone(true) });
  const tokenError = form.error instanceof ApiError && form.error.code === 'INVALID_RESET_TOKEN' ? form.error.message : null;
  return (
    <PublicLayout title={t('appName')}>
      <Paper withBorder p="lg" radius="md">
        <form noValidate onSubmit={(e) => form.mutate({ token, password: formValues(e).password ?? '' })}>
          <Stack>
            <Title order={1} size="h2">{t('resetPassword.resetTitle')}</Title>
            {!token ? <Alert color="red" role="alert">{t('resetPassword.noToken')}</Alert> : null}
            {done ? <Alert color="green" role="status">{t('resetPassword.done')}</Alert> : null}
            {tokenError ? <Alert color="red" role="alert">{tokenError}</Alert> : form.errors.general ? <Alert color="red" role="alert">{form.errors.general}</Alert> : null}
            {done ? null : (
              <>
                <PasswordInput name="password" label={t('resetPassword.newPassword')} description={t('resetPassword.hint')} autoComplete="new-password" error={tokenError ? undefined : form.errors.fields.password} />
                <Button type="submit" loading={form.isPending} disabled={!token}>{t('resetPassword.set')}</Button>
              </>
            )}
            <Anchor component={Link} to="/sign-in" size="sm">{t('resetPassword.backToSignIn')}</Anchor>
          </Stack>
        </form>
      </Paper>
    </PublicLayout>
  );
}
