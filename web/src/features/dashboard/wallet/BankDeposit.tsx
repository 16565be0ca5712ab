import { Alert, Badge, Button, Card, CopyButton, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, callData } from '../../../shared/api/client.js';
import { dashboardApi } from '../../../shared/api/dashboard.js';
import type { components } from '../../../shared/api/generated/dashboard.js';
import { formatDateTime } from '../../../shared/format/dates.js';
import { useApiForm } from '../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../shared/table/DataTable.js';
import { usePagedList, type PageQuery } from '../../../shared/table/usePagedList.js';
import { ErrorAlert } from '../../../shared/ui/QueryState.js';
import { useMoney } from '../../../shared/ui/useCurrency.js';
import { timeLeft } from './deposits.js';

type Deposit = components['schemas']['Deposit'];
const STATE_COLORS: Record<string, string> = { open: 'blue', review: 'yellow', paid: 'green', expired: 'gray', cancelled: 'gray', failed: 'red', reversed: 'orange' };
const fetchDeposits = (query: PageQuery) => call(dashboardApi.GET('/deposits', { params: { query } }));

export function DepositState(props: { state: string }) {
  const { t } = useTranslation();
  return <Badge color={STATE_COLORS[props.state] ?? 'gray'} variant="light" miw="max-content">{t(`wallet.deposit.states.${props.state}`, { defaultValue: props.state })}</Badge>;
}

function Copy(props: { value: string; label: string }) {
  const { t } = useTranslation();
  return (
    <CopyButton value={props.value}>
      {({ copied, copy }) => <Button size="compact-xs" variant="light" onClick={copy} aria-label={`${t('wallet.deposit.copy')}: ${props.label}`}>{copied ? t('wallet.deposit.copied') : t('wallet.deposit.copy')}</Button>}
    </CopyButton>
  );
}

/** The ticket: the exact amount, the account, the note, copy buttons, the countdown, both languages' instructions. */
export function TicketCard(props: { deposit: Deposit; onCancel?: () => void; cancelling?: boolean }) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const d = props.deposit;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = d.state === 'open' ? timeLeft(d.expires_at, now) : null;
  const row = (label: string, value: string, copy?: string) => (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Stack gap={0}>
        <Text size="xs" c="dimmed">{label}</Text>
        <Text fw={600} style={{ wordBreak: 'break-all' }}>{value}</Text>
      </Stack>
      {copy !== undefined ? <Copy value={copy} label={label} /> : null}
    </Group>
  );
  return (
    <Card withBorder data-testid="deposit-ticket">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">{t('wallet.deposit.ticket')}</Title>
        <DepositState state={d.state} />
      </Group>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Stack gap={0}>
            <Text size="xs" c="dimmed">{t('wallet.deposit.exact')}</Text>
            <Text fz={26} fw={700} data-testid="deposit-payable">{money(d.payable)}</Text>
          </Stack>
          <Copy value={String(d.payable)} label={t('wallet.deposit.exact')} />
        </Group>
        {d.unique_code !== null ? <Text size="sm">{t('wallet.deposit.exactHint', { code: String(d.unique_code).padStart(3, '0') })}</Text> : null}
        {d.bank_account ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {row(t('wallet.deposit.bankAccount'), `${d.bank_account.bank} ${d.bank_account.number}`, d.bank_account.number)}
            {row(t('wallet.deposit.holder'), d.bank_account.holder)}
          </SimpleGrid>
        ) : null}
        {row(t('wallet.deposit.noteLabel'), d.transfer_note, d.transfer_note)}
        {row(t('wallet.deposit.expires'), formatDateTime(d.expires_at, i18n.language))}
        {left ? <Text size="sm" fw={600} data-testid="deposit-countdown">{t('wallet.deposit.left', { time: left })}</Text> : null}
        {d.state === 'expired' ? <Alert color="gray">{t('wallet.deposit.expired')}</Alert> : null}
        {d.state === 'open' ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <div lang="en">
              <Text size="sm" fw={600}>{t('wallet.deposit.instructionsEn')}</Text>
              <Text size="sm">{t('wallet.deposit.stepsEn')}</Text>
            </div>
            <div lang="id">
              <Text size="sm" fw={600}>{t('wallet.deposit.instructionsId')}</Text>
              <Text size="sm">{t('wallet.deposit.stepsId')}</Text>
            </div>
          </SimpleGrid>
        ) : null}
        {d.state === 'open' && props.onCancel ? (
          <Group><Button variant="default" color="red" size="xs" onClick={props.onCancel} loading={props.cancelling}>{t('wallet.deposit.cancel')}</Button></Group>
        ) : null}
      </Stack>
    </Card>
  );
}

/** The bank-transfer tab: the request form, the ticket just asked for, and the list of deposits. */
export function BankDeposit() {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const qc = useQueryClient();
  const options = useQuery({ queryKey: ['deposit-options'], queryFn: () => callData(dashboardApi.GET('/deposits/options')) });
  const { setPage, list } = usePagedList([] as const, ['deposits'], fetchDeposits, { limit: 10 });
  const [amount, setAmount] = useState<number | string>('');
  const [account, setAccount] = useState<string | null>(null);
  const [sender, setSender] = useState('');
  const [shown, setShown] = useState<Deposit | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['deposits'] });
    void qc.invalidateQueries({ queryKey: ['deposit-options'] });
  };
  const o = options.data;
  const accounts = o?.bank_accounts ?? [];
  const chosen = account ?? accounts[0]?.id ?? null;
  const ask = useApiForm(['amount', 'bank_account_id', 'sender_name'], {
    mutationFn: () => callData(dashboardApi.POST('/deposits', { body: { amount: Number(amount), bank_account_id: chosen ?? '', sender_name: sender } })),
    onSuccess: (d) => { setShown(d); refresh(); },
  });
  const cancel = useMutation({
    mutationFn: (id: string) => callData(dashboardApi.POST('/deposits/{id}/cancel', { params: { path: { id } }, body: {} })),
    onSuccess: (d) => { setShown(d); refresh(); notifications.show({ message: t('wallet.deposit.cancelled') }); },
  });
  return (
    <Stack>
      <Card withBorder>
        {options.error ? <ErrorAlert error={options.error} /> : null}
        {o && accounts.length === 0 ? <Alert color="yellow">{t('wallet.deposit.noAccounts')}</Alert> : null}
        <form noValidate onSubmit={(e) => { e.preventDefault(); ask.mutate(undefined); }}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput label={t('wallet.deposit.amount')} value={amount} onChange={setAmount} min={0} allowDecimal={false} thousandSeparator={i18n.language === 'id' ? '.' : ','} decimalSeparator={i18n.language === 'id' ? ',' : '.'}
              description={o ? t('wallet.deposit.bounds', { min: money(o.min_amount), max: money(o.max_amount) }) : undefined} error={ask.errors.fields.amount} required />
            <Select label={t('wallet.deposit.account')} data={accounts.map((a) => ({ value: a.id, label: `${a.bank} ${a.number} (${a.holder})` }))} value={chosen} onChange={setAccount} allowDeselect={false}
              error={ask.errors.fields.bank_account_id} required />
            <TextInput label={t('wallet.deposit.sender')} value={sender} onChange={(e) => setSender(e.currentTarget.value)} error={ask.errors.fields.sender_name} required maxLength={100} />
          </SimpleGrid>
          {o?.remaining_today !== null && o?.remaining_today !== undefined ? <Text size="sm" mt="xs">{t('wallet.deposit.remaining', { amount: money(o.remaining_today) })}</Text> : null}
          {ask.errors.general ? <ErrorAlert error={ask.error} /> : null}
          <Button type="submit" mt="sm" loading={ask.isPending} disabled={accounts.length === 0}>{t('wallet.deposit.ask')}</Button>
        </form>
      </Card>
      {shown ? <TicketCard deposit={shown} onCancel={() => cancel.mutate(shown.id)} cancelling={cancel.isPending} /> : null}
      {cancel.error ? <ErrorAlert error={cancel.error} /> : null}
      <Card withBorder>
        <DataTable
          caption={t('wallet.deposit.list')}
          rows={list.data?.data.deposits ?? []}
          rowKey={(r) => r.id}
          meta={list.data?.meta}
          onPage={setPage}
          columns={[
            { key: 'at', header: t('wallet.deposit.created'), cell: (r) => formatDateTime(r.created_at, i18n.language) },
            { key: 'id', header: t('wallet.deposit.noteLabel'), cell: (r) => <Button variant="subtle" size="compact-sm" onClick={() => setShown(r)}>{r.id}</Button> },
            { key: 'state', header: t('wallet.deposit.state'), cell: (r) => <DepositState state={r.state} /> },
            { key: 'payable', header: t('wallet.deposit.payable'), cell: (r) => money(r.payable), align: 'right' },
            { key: 'amount', header: t('wallet.deposit.credited'), cell: (r) => money(r.amount), align: 'right' },
          ]}
        />
      </Card>
    </Stack>
  );
}
