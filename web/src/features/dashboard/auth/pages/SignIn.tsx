import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { callData } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { SignInPage } from '../../../../shared/auth/SignInPage.js';
import { useStartSession } from '../hooks.js';

export default function SignIn() {
  const { t } = useTranslation();
  const start = useStartSession();
  return (
    <SignInPage
      signIn={(body) => callData(dashboardApi.POST('/auth/sign-in', { body }))}
      secondStep={(body) => callData(dashboardApi.POST('/auth/sign-in/two-factor', { body }))}
      start={start}
      words={{ title: t('signIn.title'), expired: t('signIn.expired'), email: t('email'), password: t('password'), submit: t('signIn.submit') }}
      footer={<>
        <Anchor component={Link} to="/forgot-password" size="sm">{t('resetPassword.forgot')}</Anchor>
        <Text size="sm">{t('signIn.noAccount')} <Anchor component={Link} to="/register">{t('signIn.register')}</Anchor></Text>
      </>}
    />
  );
}
