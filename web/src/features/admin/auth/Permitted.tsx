import { Alert, Code, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan, useOperatorSession, useRolesTable, type Permission } from './hooks.js';

/**
 * Why this operator cannot do something: the permission it needs, the roles that hold it
 * (from the API's table) and the operator's own roles.
 */
export function NotPermitted({ permission }: { permission: Permission }) {
  const { t } = useTranslation();
  const session = useOperatorSession();
  const table = useRolesTable();
  const entry = table.data?.permissions.find((p) => p.name === permission);
  return (
    <Alert color="yellow" role="alert" title={t('roles.unavailable')} data-testid="not-permitted">
      <Text size="sm">
        {t('roles.needs', { roles: entry?.roles.join(', ') ?? '…', yours: session.data?.roles.join(', ') || '—' })}{' '}
        <Code>{permission}</Code>
      </Text>
      {entry ? <Text size="sm" c="dimmed">{entry.description}</Text> : null}
      <Text size="sm" mt="xs">{t('roles.askOwner')}</Text>
    </Alert>
  );
}

/** A page (or part) only for operators holding `permission`; the others are told why. */
export function Permitted({ permission, children }: { permission: Permission; children: ReactNode }) {
  const can = useCan();
  return can(permission) ? <>{children}</> : <NotPermitted permission={permission} />;
}

/** Shows `children` only to operators holding `permission` (an action button, a form). */
export function IfCan({ permission, children }: { permission: Permission; children: ReactNode }) {
  const can = useCan();
  return can(permission) ? <>{children}</> : null;
}
