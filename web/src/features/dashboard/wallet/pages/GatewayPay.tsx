import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { GatewayDeposit } from '../GatewayDeposit.js';

/** GatewayDeposit on a page of its own (the Top-up page shows it as a tab too). */
export default function GatewayPay() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('gateway.title')}</PageTitle>
      <GatewayDeposit />
    </>
  );
}
