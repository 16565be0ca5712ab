import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { ResetPasswordPage } from '../../../../shared/auth/PasswordResetPages.js';

/** The page behind the emailed link (/admin/reset-password?token=…). */
export default function ResetPassword() {
  return <ResetPasswordPage reset={(body) => callData(adminApi.POST('/auth/reset-password', { body }))} />;
}
