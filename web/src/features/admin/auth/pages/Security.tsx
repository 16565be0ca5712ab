import { Divider } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { SessionsPanel } from '../../../../shared/auth/SessionsPanel.js';
import { TwoFactorPanel } from '../../../../shared/auth/TwoFactorPanel.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { useRefreshOperatorSession } from '../hooks.js';

const api = {
  status: () => callData(adminApi.GET('/auth/two-factor')),
  start: () => callData(adminApi.POST('/auth/two-factor/enrolment')),
  confirm: (code: string) => callData(adminApi.POST('/auth/two-factor/enrolment/confirm', { body: { code } })),
  newCodes: (code: string) => callData(adminApi.POST('/auth/two-factor/recovery-codes', { body: { code } })),
  disable: (body: { password?: string; code?: string }) => callData(adminApi.POST('/auth/two-factor/disable', { body })),
};

const sessionsApi = {
  sessions: () => callData(adminApi.GET('/auth/sessions')),
  end: (id: string) => callData(adminApi.DELETE('/auth/sessions/{id}', { params: { path: { id } } })),
  signIns: () => callData(adminApi.GET('/auth/sign-ins')),
};

/** The operator's security: two-factor sign-in (where an operator who must enrol is sent first). */
export default function Security() {
  const { t } = useTranslation();
  const refresh = useRefreshOperatorSession();
  return (
    <>
      <PageTitle>{t('twoFactor.security')}</PageTitle>
      <TwoFactorPanel api={api} queryKey={['admin', 'two-factor']} onChanged={refresh} />
      <Divider my="xl" />
      <SessionsPanel api={sessionsApi} queryKey={['admin', 'security']} />
    </>
  );
}
