import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { RequireOperator } from '../../features/admin/auth/RequireOperator.js';
import { useCan, useOperatorSession, useOperatorSignOut } from '../../features/admin/auth/hooks.js';
import { AppLayout } from '../../shared/layout/AppLayout.js';
import { navFor } from './nav.js';

/**
 * Every signed-in console page: the operator session guard and the shared layout. An
 * operator whose roles need two-factor sign-in and who has none goes to Security first
 * (the API refuses the other pages until then).
 */
export function AdminFrame() {
  const { t } = useTranslation();
  const signOut = useOperatorSignOut();
  const can = useCan();
  const session = useOperatorSession();
  const location = useLocation();
  if (session.data?.two_factor_missing && location.pathname !== '/security') return <Navigate to="/security" replace />;
  return (
    <RequireOperator>
      {(s) => <AppLayout title={t('appName')} nav={navFor(can)} who={s.email} onSignOut={() => signOut.mutate()} />}
    </RequireOperator>
  );
}
