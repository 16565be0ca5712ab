import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { GatewaySettings } from '../GatewaySettings.js';

/** The payment gateway's settings (its payments are on the Deposits page, beside the bank's). */
export default function GatewayPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('gatewayAdmin.title')}</PageTitle>
      <GatewaySettings />
    </>
  );
}
