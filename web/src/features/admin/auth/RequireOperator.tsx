import { Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { isUnauthenticated } from '../../../shared/api/client.js';
import { ErrorAlert } from '../../../shared/ui/QueryState.js';
import { useOperatorSession } from './hooks.js';

/** Signed-in console pages only: without an operator session, to sign-in and back here afterwards. */
export function RequireOperator(props: { children(session: { email: string }): ReactNode }) {
  const session = useOperatorSession();
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
