import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { callData } from '../../../../shared/api/client.js';
import { ResetPasswordPage } from '../../../../shared/auth/PasswordResetPages.js';

/** The page behind the emailed link (/dashboard/reset-password?token=…). */
export default function ResetPassword() {
  return <ResetPasswordPage reset={(body) => callData(dashboardApi.POST('/auth/reset-password', { body }))} />;
}
