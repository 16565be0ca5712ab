import { Button, Card, Group, NumberInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callData } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { useApiForm } from '../../../../shared/forms/useApiForm.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useLowBalance } from '../deposits.js';

/** Settings → Low balance: the reseller's own threshold for the top-up banner. */
export default function LowBalanceSetting() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const lb = useLowBalance();
  const [value, setValue] = useState<number | string>('');
  useEffect(() => {
    if (lb.data) setValue(lb.data.threshold ?? '');
  }, [lb.data]);
  const save = useApiForm(['threshold'], {
    mutationFn: (threshold: number | null) => callData(dashboardApi.PUT('/low-balance', { body: { threshold } })),
    onSuccess: (d) => {
      qc.setQueryData(['low-balance'], d);
      notifications.show({ message: t('wallet.threshold.saved'), color: 'green' });
    },
  });
  return (
    <>
      <PageTitle>{t('wallet.threshold.title')}</PageTitle>
      <Card withBorder>
        <Text size="sm" mb="sm">{t('wallet.threshold.intro')}</Text>
        <form noValidate onSubmit={(e) => { e.preventDefault(); save.mutate(value === '' ? null : Number(value)); }}>
          <Stack gap="sm" maw={360}>
            <NumberInput label={t('wallet.threshold.label')} value={value} onChange={setValue} min={0} allowDecimal={false} thousandSeparator={i18n.language === 'id' ? '.' : ','} decimalSeparator={i18n.language === 'id' ? ',' : '.'} error={save.errors.fields.threshold} />
            {save.errors.general ? <ErrorAlert error={save.error} /> : null}
            <Group>
              <Button type="submit" loading={save.isPending}>{t('save')}</Button>
              <Button variant="default" onClick={() => { setValue(''); save.mutate(null); }}>{t('wallet.threshold.clear')}</Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </>
  );
}
