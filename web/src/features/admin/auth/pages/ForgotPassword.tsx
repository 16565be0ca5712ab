import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { ForgotPasswordPage } from '../../../../shared/auth/PasswordResetPages.js';

export default function ForgotPassword() {
  return <ForgotPasswordPage request={(body) => callData(adminApi.POST('/auth/forgot-password', { body }))} />;
}
