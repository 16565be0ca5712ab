import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Downloads the server's CSV of what the page shows (same filters), with the session cookie. */
export function CsvLink(props: { href: string }) {
  const { t } = useTranslation();
  return <Button component="a" href={props.href} download variant="default" size="sm">{t('exportCsv')}</Button>;
}

/** The non-empty filters as a query string. */
export function queryString(filters: Record<string, string | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}
