import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../api/client.js';

/** Loading, not-found and error states of a query, so every page shows them alike. */
export function QueryState<T>(props: { query: { isPending: boolean; error: unknown; data?: T }; children: (data: T) => ReactNode }) {
  const { t } = useTranslation();
  const { isPending, error, data } = props.query;
  if (isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('loading')} />
      </Center>
    );
  }
  if (error) {
    if (error instanceof ApiError && error.status === 404) return <NotFound />;
    return <ErrorAlert error={error} />;
  }
  return <>{props.children(data as T)}</>;
}

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Stack align="flex-start" py="lg">
      <Text component="h1" fw={700} size="xl">{t('notFound')}</Text>
      <Text>{t('notFoundText')}</Text>
      <Button component={Link} to="/" variant="light">{t('backHome')}</Button>
    </Stack>
  );
}

export function ErrorAlert(props: { error: unknown }) {
  const { t } = useTranslation();
  const e = props.error;
  return (
    <Alert color="red" title={t('errorTitle')} role="alert">
      {e instanceof Error ? e.message : String(e)}
      {e instanceof ApiError && e.requestId ? <Text size="xs" mt={4}>{t('requestId', { id: e.requestId })}</Text> : null}
    </Alert>
  );
}
