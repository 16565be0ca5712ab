import { useTranslation } from 'react-i18next';
import { RequireOperator } from '../../features/admin/auth/RequireOperator.js';
import { useCan, useOperatorSignOut } from '../../features/admin/auth/hooks.js';
import { AppLayout } from '../../shared/layout/AppLayout.js';
import { navFor } from './nav.js';

/** Every signed-in console page: the operator session guard and the shared layout. */
export function AdminFrame() {
  const { t } = useTranslation();
  const signOut = useOperatorSignOut();
  const can = useCan();
  return (
    <RequireOperator>
      {(s) => <AppLayout title={t('appName')} nav={navFor(can)} who={s.email} onSignOut={() => signOut.mutate()} />}
    </RequireOperator>
  );
}
