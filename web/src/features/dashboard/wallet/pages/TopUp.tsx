import { SegmentedControl, Stack } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { BankDeposit } from '../BankDeposit.js';
import { GatewayDeposit } from '../GatewayDeposit.js';

/** Wallet → Top up: a channel choice, bank transfer (unique-code tickets) or the payment gateway. */
export default function TopUp() {
  const { t } = useTranslation();
  // The channel is in the address (?channel=gateway), so a link can open either tab.
  const [params, setParams] = useSearchParams();
  const channel = params.get('channel') === 'gateway' ? 'gateway' : 'bank';
  const setChannel = (c: string) => setParams(c === 'gateway' ? { channel: c } : {}, { replace: true });
  return (
    <>
      <PageTitle>{t('wallet.deposit.title')}</PageTitle>
      <Stack>
        <SegmentedControl
          aria-label={t('wallet.deposit.channel')}
          value={channel}
          onChange={setChannel}
          data={[{ value: 'bank', label: t('wallet.deposit.bank') }, { value: 'gateway', label: t('wallet.deposit.gateway') }]}
          style={{ alignSelf: 'flex-start' }}
        />
        {channel === 'bank' ? <BankDeposit /> : <GatewayDeposit />}
      </Stack>
    </>
  );
}
