import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { BankAccountsCard } from '../BankAccountsCard.js';
import { LimitsCard } from '../LimitsCard.js';

/** Deposit settings: receiving bank accounts (with their statement columns), limits and the mutation webhook. */
export default function DepositSettings() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('deposits.settings.title')}</PageTitle>
      <Stack>
        <BankAccountsCard />
        <LimitsCard />
      </Stack>
    </>
  );
}
