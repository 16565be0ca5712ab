import { Button, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { useCan } from '../../auth/hooks.js';
import { RoutesCard } from '../sections/RoutesCard.js';
import { SandboxCard } from '../sections/SandboxCard.js';
import { SuppliersCard } from '../sections/SuppliersCard.js';

/** Suppliers, product routes with their availability, and the sandbox supplier's switches. */
export default function Supply() {
  const { t } = useTranslation();
  const may = useCan()('catalog.manage');
  return (
    <>
      <PageTitle actions={may ? <Button component={Link} to="/supply/import" variant="light">{t('supply.importSkus')}</Button> : undefined}>{t('supply.title')}</PageTitle>
      <Stack>
        <SuppliersCard />
        <RoutesCard />
        <SandboxCard />
      </Stack>
    </>
  );
}
