import { Alert, Button, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { formValues, useApiForm } from '../forms/useApiForm.js';
import { PublicLayout } from '../layout/AppLayout.js';

/** Where to go after signing in: only a path inside this app (no open redirect). */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

export interface SignInProps {
  /** POST /auth/sign-in of the app's API. */
  signIn(body: { email: string; password: string }): Promise<{ csrf_token: string }>;
  /** Keeps the session's CSRF token and marks the session started. */
  start(csrfToken: string): void;
  /** The page's words, in the viewer's language (each app names its keys). */
  words: { title: string; expired: string; email: string; password: string; submit: string };
  /** Below the button (the dashboard's link to registration). */
  footer?: ReactNode;
}

/** The sign-in page of both apps: email and password, errors by the field, then back where the person was. */
export function SignInPage({ signIn, start, words, footer }: SignInProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const next = safeNext(params.get('next'));
  const form = useApiForm(['email', 'password'], {
    mutationFn: signIn,
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
            <Title order={1} size="h2">{words.title}</Title>
            {next !== '/' ? <Alert color="blue">{words.expired}</Alert> : null}
            {form.errors.general ? <Alert color="red" role="alert">{form.errors.general}</Alert> : null}
            <TextInput name="email" type="email" label={words.email} autoComplete="username" required error={form.errors.fields.email} />
            <PasswordInput name="password" label={words.password} autoComplete="current-password" required error={form.errors.fields.password} />
            <Button type="submit" loading={form.isPending}>{words.submit}</Button>
            {footer}
          </Stack>
        </form>
      </Paper>
    </PublicLayout>
  );
}
