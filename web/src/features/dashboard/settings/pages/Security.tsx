import { Divider } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { callData } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { SessionsPanel } from '../../../../shared/auth/SessionsPanel.js';
import { TwoFactorPanel } from '../../../../shared/auth/TwoFactorPanel.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';

const api = {
  status: () => callData(dashboardApi.GET('/auth/two-factor')),
  start: () => callData(dashboardApi.POST('/auth/two-factor/enrolment')),
  confirm: (code: string) => callData(dashboardApi.POST('/auth/two-factor/enrolment/confirm', { body: { code } })),
  newCodes: (code: string) => callData(dashboardApi.POST('/auth/two-factor/recovery-codes', { body: { code } })),
  disable: (body: { password?: string; code?: string }) => callData(dashboardApi.POST('/auth/two-factor/disable', { body })),
};

const sessionsApi = {
  sessions: () => callData(dashboardApi.GET('/auth/sessions')),
  end: (id: string) => callData(dashboardApi.DELETE('/auth/sessions/{id}', { params: { path: { id } } })),
  signIns: () => callData(dashboardApi.GET('/auth/sign-ins')),
};

/** The account's security: its own two-factor sign-in. */
export default function Security() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('twoFactor.security')}</PageTitle>
      <TwoFactorPanel api={api} queryKey={['dashboard', 'two-factor']} />
      <Divider my="xl" />
      <SessionsPanel api={sessionsApi} queryKey={['dashboard', 'security']} />
    </>
  );
}
