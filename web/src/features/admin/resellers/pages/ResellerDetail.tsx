import { Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { QueryState } from '../../../../shared/ui/QueryState.js';
import { StatusBadge } from '../../ui/StatusBadge.js';
import { CallbackCard } from '../sections/CallbackCard.js';
import { CatalogsCard } from '../sections/CatalogsCard.js';
import { InvitationsCard } from '../sections/InvitationsCard.js';
import { KeysCard } from '../sections/KeysCard.js';
import { OrdersCard } from '../sections/OrdersCard.js';
import { ProfileCard } from '../sections/ProfileCard.js';
import { WalletCard } from '../sections/WalletCard.js';
import { WhitelistCard } from '../sections/WhitelistCard.js';

export const resellerKey = (id: string) => ['admin', 'reseller', id] as const;

/** One reseller: everything the operator can see and do for it, one card per concern. */
export default function ResellerDetail() {
  const { t } = useTranslation();
  const { resellerId = '' } = useParams();
  const reseller = useQuery({ queryKey: resellerKey(resellerId), queryFn: () => callData(adminApi.GET('/resellers/{id}', { params: { path: { id: resellerId } } })) });
  return (
    <QueryState query={reseller}>
      {(r) => (
        <>
          <PageTitle actions={<>
            <Button component={Link} to={`/resellers/${encodeURIComponent(r.id)}/statement`} variant="default" size="sm">{t('statement.open')}</Button>
            <StatusBadge status={r.status} />
          </>}>{r.name}</PageTitle>
          <Stack>
            {/* One column: the cards' tables need the width (they scroll sideways below 600 px). */}
            <ProfileCard reseller={r} />
            <WalletCard reseller={r} />
            <CatalogsCard reseller={r} />
            <KeysCard reseller={r} />
            <WhitelistCard reseller={r} />
            <CallbackCard reseller={r} />
            <InvitationsCard reseller={r} />
            <OrdersCard reseller={r} />
          </Stack>
        </>
      )}
    </QueryState>
  );
}
