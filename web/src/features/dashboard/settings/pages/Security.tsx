import { useTranslation } from 'react-i18next';
import { callData } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { TwoFactorPanel } from '../../../../shared/auth/TwoFactorPanel.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';

const api = {
  status: () => callData(dashboardApi.GET('/auth/two-factor')),
  start: () => callData(dashboardApi.POST('/auth/two-factor/enrolment')),
  confirm: (code: string) => callData(dashboardApi.POST('/auth/two-factor/enrolment/confirm', { body: { code } })),
  newCodes: (code: string) => callData(dashboardApi.POST('/auth/two-factor/recovery-codes', { body: { code } })),
  disable: (body: { password?: string; code?: string }) => callData(dashboardApi.POST('/auth/two-factor/disable', { body })),
};

/** The account's security: its own two-factor sign-in. */
export default function Security() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('twoFactor.security')}</PageTitle>
      <TwoFactorPanel api={api} queryKey={['dashboard', 'two-factor']} />
    </>
  );
}
