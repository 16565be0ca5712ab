import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { SignInPage } from '../../../../shared/auth/SignInPage.js';
import { useStartOperatorSession } from '../hooks.js';

export default function SignIn() {
  const { t } = useTranslation();
  const start = useStartOperatorSession();
  return (
    <SignInPage
      signIn={(body) => callData(adminApi.POST('/auth/sign-in', { body }))}
      secondStep={(body) => callData(adminApi.POST('/auth/sign-in/two-factor', { body }))}
      start={start}
      words={{ title: t('auth.signIn'), expired: t('auth.expired'), email: t('auth.email'), password: t('auth.password'), submit: t('auth.signIn') }}
      footer={<Anchor component={Link} to="/forgot-password" size="sm">{t('resetPassword.forgot')}</Anchor>}
    />
  );
}
