import { Button, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { RoutesCard } from '../sections/RoutesCard.js';
import { SandboxCard } from '../sections/SandboxCard.js';
import { SuppliersCard } from '../sections/SuppliersCard.js';

/** Suppliers, product routes with their availability, and the sandbox supplier's switches. */
export default function Supply() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle actions={<Button component={Link} to="/supply/import" variant="light">{t('supply.importSkus')}</Button>}>{t('supply.title')}</PageTitle>
      <Stack>
        <SuppliersCard />
        <RoutesCard />
        <SandboxCard />
      </Stack>
    </>
  );
}
