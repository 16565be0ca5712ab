import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, string> = { pending: 'yellow', active: 'green', suspended: 'red' };

/** A reseller's account status in the viewer's language. */
export function StatusBadge(props: { status: string }) {
  const { t } = useTranslation();
  return <Badge color={COLORS[props.status] ?? 'gray'} variant="light">{props.status in COLORS ? t(`resellers.statuses.${props.status}`) : props.status}</Badge>;
}
