import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, string> = { processing: 'blue', success: 'green', failed: 'red', refunded: 'orange', refused: 'gray' };

/** An order state, as the API names it, in the viewer's language. */
export function StateBadge(props: { state: string }) {
  const { t } = useTranslation();
  const known = props.state in COLORS;
  return <Badge color={COLORS[props.state] ?? 'gray'} variant="light" miw="max-content">{known ? t(`states.${props.state}`) : props.state}</Badge>;
}
