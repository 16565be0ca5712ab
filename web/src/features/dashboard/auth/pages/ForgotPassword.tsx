import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { callData } from '../../../../shared/api/client.js';
import { ForgotPasswordPage } from '../../../../shared/auth/PasswordResetPages.js';

export default function ForgotPassword() {
  return <ForgotPasswordPage request={(body) => callData(dashboardApi.POST('/auth/forgot-password', { body }))} />;
}
