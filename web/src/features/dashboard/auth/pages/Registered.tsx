import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicLayout } from '../../../../shared/layout/AppLayout.js';

export default function Registered() {
  const { t } = useTranslation();
  return (
    <PublicLayout title={t('appName')}>
      <Paper withBorder p="lg" radius="md">
        <Stack>
          <Title order={1} size="h2">{t('registered.title')}</Title>
          <Text>{t('registered.text')}</Text>
          <Button component={Link} to="/">{t('registered.continue')}</Button>
        </Stack>
      </Paper>
    </PublicLayout>
  );
}
