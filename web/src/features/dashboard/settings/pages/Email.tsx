import { useTranslation } from 'react-i18next';
import { callData } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { EmailSettings, type EmailSettingsApi } from '../../../../shared/ui/EmailSettings.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';

const api: EmailSettingsApi = {
  language: () => callData(dashboardApi.GET('/me/language')),
  setLanguage: (language) => callData(dashboardApi.PUT('/me/language', { body: { language } })),
  enabled: () => callData(dashboardApi.GET('/me/notifications')),
  setEnabled: (enabled) => callData(dashboardApi.PUT('/me/notifications', { body: { enabled } })),
};

export default function Email() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('emailSettings.title')}</PageTitle>
      <EmailSettings api={api} />
    </>
  );
}
