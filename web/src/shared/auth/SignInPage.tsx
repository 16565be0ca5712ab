import { Alert, Anchor, Button, Checkbox, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { formValues, useApiForm } from '../forms/useApiForm.js';
import { PublicLayout } from '../layout/AppLayout.js';

/** Where to go after signing in: only a path inside this app (no open redirect). */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

type SessionAnswer = { csrf_token: string };
type PendingAnswer = { two_factor_required: true; challenge: string };

/** What the second step sends: the challenge and a code or a recovery code. */
export interface SecondStepBody {
  challenge: string;
  code?: string;
  recovery_code?: string;
  remember_device_days: number;
}

export interface SignInProps {
  /** POST /auth/sign-in of the app's API: a session, or a challenge for the second step. */
  signIn(body: { email: string; password: string }): Promise<SessionAnswer | PendingAnswer>;
  /** POST /auth/sign-in/two-factor. */
  secondStep(body: SecondStepBody): Promise<SessionAnswer>;
  /** Keeps the session's CSRF token and marks the session started. */
  start(csrfToken: string): void;
  /** The page's words, in the viewer's language (each app names its keys). */
  words: { title: string; expired: string; email: string; password: string; submit: string };
  /** Below the button (the dashboard's link to registration). */
  footer?: ReactNode;
}

/**
 * The sign-in page of both apps: email and password, errors by the field, then (with
 * two-factor on) the code, then back where the person was.
 */
export function SignInPage({ signIn, secondStep, start, words, footer }: SignInProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const next = safeNext(params.get('next'));
  const [challenge, setChallenge] = useState<string | null>(null);
  const done = (s: SessionAnswer) => {
    start(s.csrf_token);
    navigate(next, { replace: true });
  };
  const form = useApiForm(['email', 'password'], {
    mutationFn: signIn,
    onSuccess: (s) => ('two_factor_required' in s ? setChallenge(s.challenge) : done(s)),
  });
  return (
    <PublicLayout title={t('appName')}>
      <Paper withBorder p="lg" radius="md">
        {challenge ? (
          <SecondStep challenge={challenge} send={secondStep} onDone={done} onBack={() => setChallenge(null)} />
        ) : (
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
        )}
      </Paper>
    </PublicLayout>
  );
}

/** The second step: a code of the app (or a recovery code), and whether to remember this device. */
function SecondStep(props: { challenge: string; send: SignInProps['secondStep']; onDone(s: SessionAnswer): void; onBack(): void }) {
  const { t } = useTranslation();
  const [recovery, setRecovery] = useState(false);
  const form = useApiForm([recovery ? 'recovery_code' : 'code'], { mutationFn: props.send, onSuccess: props.onDone });
  const error = form.errors.general ?? form.errors.fields.code ?? form.errors.fields.recovery_code;
  return (
    <form
      onSubmit={(e) => {
        const v = formValues(e);
        const remember = v.remember === 'on' ? 30 : 0;
        form.mutate(recovery
          ? { challenge: props.challenge, recovery_code: v.recovery_code ?? '', remember_device_days: remember }
          : { challenge: props.challenge, code: v.code ?? '', remember_device_days: remember });
      }}
    >
      <Stack>
        <Title order={1} size="h2">{t('twoFactor.title')}</Title>
        <Text size="sm">{t('twoFactor.stepText')}</Text>
        {error ? <Alert color="red" role="alert">{error}</Alert> : null}
        {recovery
          ? <TextInput key="recovery" name="recovery_code" label={t('twoFactor.recoveryCode')} autoComplete="off" required data-autofocus />
          : <TextInput key="code" name="code" label={t('twoFactor.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={7} required data-autofocus />}
        <Checkbox name="remember" label={t('twoFactor.remember')} />
        <Button type="submit" loading={form.isPending}>{t('twoFactor.verify')}</Button>
        <Anchor component="button" type="button" size="sm" onClick={() => { form.reset(); setRecovery(!recovery); }}>
          {recovery ? t('twoFactor.useCode') : t('twoFactor.useRecovery')}
        </Anchor>
        <Anchor component="button" type="button" size="sm" onClick={props.onBack}>{t('twoFactor.back')}</Anchor>
      </Stack>
    </form>
  );
}
