import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
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

/** The operator's security: two-factor sign-in (where an operator who must enrol is sent first). */
export default function Security() {
  const { t } = useTranslation();
  const refresh = useRefreshOperatorSession();
  return (
    <>
      <PageTitle>{t('twoFactor.security')}</PageTitle>
      <TwoFactorPanel api={api} queryKey={['admin', 'two-factor']} onChanged={refresh} />
    </>
  );
}
