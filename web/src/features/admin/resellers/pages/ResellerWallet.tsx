import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { QueryState } from '../../../../shared/ui/QueryState.js';
import { Permitted } from '../../auth/Permitted.js';
import { WalletCard } from '../sections/WalletCard.js';
import { resellerKey } from './ResellerDetail.js';

/** A reseller's wallet on its own page (a link straight to crediting or debiting): for operators who may adjust wallets. */
export default function ResellerWallet() {
  const { t } = useTranslation();
  const { resellerId = '' } = useParams();
  return (
    <>
      <PageTitle>{t('resellers.detail.wallet')}</PageTitle>
      <Permitted permission="wallet.adjust">
        <WalletPageBody resellerId={resellerId} />
      </Permitted>
    </>
  );
}

function WalletPageBody({ resellerId }: { resellerId: string }) {
  const reseller = useQuery({ queryKey: resellerKey(resellerId), queryFn: () => callData(adminApi.GET('/resellers/{id}', { params: { path: { id: resellerId } } })) });
  return <QueryState query={reseller}>{(r) => <WalletCard reseller={r} />}</QueryState>;
}
