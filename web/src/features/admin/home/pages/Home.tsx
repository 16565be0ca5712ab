import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';

export default function Home() {
  const { t } = useTranslation();
  return <PageTitle>{t('home.title')}</PageTitle>;
}
