import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { GatewayPayments } from '../GatewayPayments.js';
import { GatewaySettings } from '../GatewaySettings.js';

/** The payment gateway in the console: its payments (with notifications) and its settings. */
export default function GatewayPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('gatewayAdmin.title')}</PageTitle>
      <Tabs defaultValue="payments" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="payments">{t('gatewayAdmin.payments')}</Tabs.Tab>
          <Tabs.Tab value="settings">{t('gatewayAdmin.settings')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="payments"><GatewayPayments /></Tabs.Panel>
        <Tabs.Panel value="settings"><GatewaySettings /></Tabs.Panel>
      </Tabs>
    </>
  );
}
