import { Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { isUnauthenticated } from '../../../shared/api/client.js';
import { ErrorAlert } from '../../../shared/ui/QueryState.js';
import { useSession } from './hooks.js';

/** Signed-in pages only: without a session, to sign-in and back here afterwards. */
export function RequireSession(props: { children(session: { email: string; reseller_id: string }): ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const { t } = useTranslation();
  if (session.isPending) return <Center h="100vh"><Loader aria-label={t('loading')} /></Center>;
  if (session.error) {
    if (isUnauthenticated(session.error)) {
      const next = encodeURIComponent(location.pathname + location.search);
      return <Navigate to={`/sign-in?next=${next}`} replace />;
    }
    return <ErrorAlert error={session.error} />;
  }
  return <>{props.children(session.data)}</>;
}
