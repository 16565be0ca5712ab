import { useTranslation } from 'react-i18next';
import { RequireSession } from '../../features/dashboard/auth/RequireSession.js';
import { useSignOut } from '../../features/dashboard/auth/hooks.js';
import { AppLayout } from '../../shared/layout/AppLayout.js';
import { NAV } from './nav.js';
import { LowBalanceBanner } from '../../features/dashboard/wallet/LowBalanceBanner.js';

/** Every signed-in page: the session guard and the layout around the page. */
export function DashboardFrame() {
  const { t } = useTranslation();
  const signOut = useSignOut();
  return (
    <RequireSession>
      {(s) => <AppLayout title={t('appName')} nav={NAV} who={s.email} onSignOut={() => signOut.mutate()} banner={<LowBalanceBanner />} />}
    </RequireSession>
  );
}
