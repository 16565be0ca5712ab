import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMoney } from '../../../shared/ui/useCurrency.js';
import { useLowBalance } from './deposits.js';

/** Above every page while the balance is below the reseller's own threshold. */
export function LowBalanceBanner() {
  const { t } = useTranslation();
  const money = useMoney();
  const lb = useLowBalance();
  if (!lb.data?.below || lb.data.threshold === null) return null;
  return (
    <Alert color="yellow" mb="md" data-testid="low-balance-banner">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm">{t('wallet.lowBalance', { balance: money(lb.data.balance), threshold: money(lb.data.threshold) })}</Text>
        <Button component={Link} to="/wallet/top-up" size="xs">{t('wallet.topUp')}</Button>
      </Group>
    </Alert>
  );
}
