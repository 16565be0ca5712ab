import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';

export default function Supply() {
  const { t } = useTranslation();
  return <PageTitle>{t('supply.title')}</PageTitle>;
}
