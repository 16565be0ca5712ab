import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';

export default function CatalogPrices() {
  const { t } = useTranslation();
  return <PageTitle>{t('catalog.title')}</PageTitle>;
}
