import { Alert, Button, Card, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callData } from '../../../shared/api/client.js';
import { dashboardApi } from '../../../shared/api/dashboard.js';
import { useApiForm } from '../../../shared/forms/useApiForm.js';
import { ErrorAlert } from '../../../shared/ui/QueryState.js';
import { useMoney } from '../../../shared/ui/useCurrency.js';

/** Waits for typing to pause before asking for fees again. */
function useSettled(value: string, ms = 300) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/**
 * A deposit by payment gateway: pick a method, see the amount, the fee and the total before
 * paying, then go to the gateway's page (Snap, redirect mode); it sends the browser back to
 * the deposit's return page (/wallet/deposits/:id).
 */
export function GatewayDeposit() {
  const { t } = useTranslation();
  const money = useMoney();
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState<string | null>(null);
  const settled = useSettled(amount.trim());
  const valid = /^\d+(\.\d+)?$/.test(settled) && Number(settled) > 0;
  const methods = useQuery({
    queryKey: ['payment-methods', valid ? settled : ''],
    queryFn: () => callData(dashboardApi.GET('/payment-methods', { params: { query: valid ? { amount: settled } : {} } })),
    placeholderData: (prev) => prev,
  });
  const offers = methods.data?.methods ?? [];
  const chosen = offers.find((m) => m.code === method) ?? null;
  const create = useApiForm(['amount', 'method'], {
    mutationFn: (body: { amount: string; method: string }) =>
      callData(dashboardApi.POST('/gateway-deposits', { body: { amount: body.amount, method: body.method as never } })),
    onSuccess: (d) => {
      if (d.redirect_url) window.location.assign(d.redirect_url);
    },
  });
  const payable = valid && chosen && chosen.payable !== null && !chosen.refusal ? chosen.payable : null;

  if (methods.data && !methods.data.available) return <Alert color="yellow">{t('gateway.unavailable')}</Alert>;
  return (
    <Card withBorder>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (method) create.mutate({ amount: amount.trim(), method });
        }}
      >
        <Stack>
          <Text size="sm">{t('gateway.intro')}</Text>
          <TextInput
            name="amount" label={t('gateway.amount')} inputMode="decimal" value={amount} w={280} maw="100%"
            onChange={(e) => setAmount(e.currentTarget.value)} error={create.errors.fields.amount}
          />
          {methods.error ? <ErrorAlert error={methods.error} /> : null}
          {methods.data && offers.length === 0 ? <Text c="dimmed">{t('gateway.noMethods')}</Text> : null}
          <Radio.Group name="method" label={t('gateway.method')} value={method} onChange={setMethod} error={create.errors.fields.method}>
            <Stack gap="xs" mt="xs">
              {offers.map((m) => (
                <Radio
                  key={m.code} value={m.code} disabled={!!m.refusal}
                  label={m.label}
                  description={
                    m.refusal ? t(`gateway.refusal.${m.refusal}`, { min: money(m.min_amount), max: money(m.max_amount) })
                      : m.fee === null ? undefined
                        : m.fee_mode === 'absorb' ? `${t('gateway.feeAbsorbed')}: ${money(m.fee)}` : `${t('gateway.fee')}: ${money(m.fee)}`
                  }
                />
              ))}
            </Stack>
          </Radio.Group>
          {!valid ? <Text size="sm" c="dimmed">{t('gateway.enterAmount')}</Text> : null}
          {payable !== null && chosen ? (
            <Card withBorder bg="var(--mantine-color-default-hover)" data-testid="gateway-summary">
              <Group justify="space-between"><Text size="sm">{t('gateway.amount')}</Text><Text size="sm">{money(settled)}</Text></Group>
              <Group justify="space-between">
                <Text size="sm">{chosen.fee_mode === 'absorb' ? t('gateway.feeAbsorbed') : t('gateway.fee')}</Text>
                <Text size="sm">{chosen.fee_mode === 'absorb' ? money(0) : money(chosen.fee ?? 0)}</Text>
              </Group>
              <Group justify="space-between"><Text fw={700}>{t('gateway.total')}</Text><Text fw={700} data-testid="gateway-total">{money(payable)}</Text></Group>
            </Card>
          ) : null}
          {create.errors.general ? <ErrorAlert error={create.error} /> : null}
          <Group>
            <Button type="submit" disabled={payable === null || create.isSuccess} loading={create.isPending}>
              {payable !== null ? t('gateway.pay', { total: money(payable) }) : t('gateway.pay', { total: '' }).trim()}
            </Button>
            {create.isSuccess ? <Text size="sm" c="dimmed" role="status">{t('gateway.redirecting')}</Text> : null}
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

export default GatewayDeposit;
