import { Alert, Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ApprovalRequest } from './ApprovalsTable.js';

/** A money change answered 202: it became a four-eyes request (the API's data is the request, with a state). */
export const isApprovalRequest = (d: object): d is ApprovalRequest => 'state' in d && 'requested_by' in d;

/** What the credit, debit and refund dialogs say when the change waits for a second operator. */
export function SentForApproval() {
  const { t } = useTranslation();
  return (
    <Alert color="blue" role="status" data-testid="sent-for-approval">
      {t('approvals.sentForApproval')} <Anchor component={Link} to="/four-eyes" inherit>{t('approvals.viewRequests')}</Anchor>
    </Alert>
  );
}
