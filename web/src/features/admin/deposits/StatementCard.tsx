import { Alert, Button, Card, FileInput, Group, NativeSelect, Stack, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../shared/api/admin.js';
import { callData } from '../../../shared/api/client.js';
import { DataTable } from '../../../shared/table/DataTable.js';
import { useAdminMoney } from '../ui/useAdminMoney.js';
import { DepositBadge } from './DepositState.js';

/** Statement import: a bank account, its export (file or pasted), a preview of every line, then apply. */
export function StatementCard() {
  const { t } = useTranslation();
  const money = useAdminMoney();
  const qc = useQueryClient();
  const accounts = useQuery({ queryKey: ['admin', 'bank-accounts'], queryFn: () => callData(adminApi.GET('/bank-accounts')) });
  const [account, setAccount] = useState('');
  const [csv, setCsv] = useState('');
  const list = accounts.data?.bank_accounts ?? [];
  const chosen = account || list[0]?.id || '';
  const body = () => ({ params: { path: { id: chosen } }, body: { csv: csv.replace(/\r\n?/g, '\n') } });
  const preview = useMutation({ mutationFn: () => callData(adminApi.POST('/bank-accounts/{id}/statement/preview', body())) });
  const apply = useMutation({
    mutationFn: () => callData(adminApi.POST('/bank-accounts/{id}/statement/apply', body())),
    onSuccess: () => { preview.reset(); void qc.invalidateQueries({ queryKey: ['admin'] }); },
  });
  const mapped = list.find((a) => a.id === chosen)?.statement_mapping;
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">{t('deposits.importTitle')}</Title>
      <Stack gap="sm">
        <NativeSelect label={t('deposits.bankAccount')} value={chosen} onChange={(e) => { setAccount(e.currentTarget.value); preview.reset(); }}
          data={list.map((a) => ({ value: a.id, label: `${a.bank} ${a.number} (${a.holder})` }))} />
        {chosen && !mapped ? <Alert color="yellow">{t('deposits.noMapping')}</Alert> : null}
        <FileInput label={t('deposits.file')} accept=".csv,text/csv,text/plain" clearable onChange={(f) => { if (f) void f.text().then((text) => { setCsv(text); preview.reset(); }); }} />
        <Textarea label={t('deposits.csv')} value={csv} onChange={(e) => { setCsv(e.currentTarget.value); preview.reset(); }} autosize minRows={3} maxRows={10} styles={{ input: { fontFamily: 'monospace' } }} />
        <Group>
          <Button variant="light" onClick={() => preview.mutate()} loading={preview.isPending} disabled={!chosen || !csv.trim()}>{t('deposits.preview')}</Button>
          <Button onClick={() => apply.mutate()} loading={apply.isPending} disabled={!preview.data}>{t('deposits.apply')}</Button>
        </Group>
        {preview.error ? <Alert color="red" role="alert">{preview.error.message}</Alert> : null}
        {apply.error ? <Alert color="red" role="alert">{apply.error.message}</Alert> : null}
        {apply.data ? <Alert color="green" role="status" data-testid="statement-applied">{t('deposits.applied', apply.data)}</Alert> : null}
        {preview.data ? (
          <DataTable
            caption={t('deposits.preview')}
            rows={preview.data.lines}
            rowKey={(r) => r.identity}
            columns={[
              { key: 'row', header: t('deposits.row'), cell: (r) => r.row },
              { key: 'date', header: t('deposits.date'), cell: (r) => r.date },
              { key: 'desc', header: t('deposits.description'), cell: (r) => r.description },
              { key: 'amount', header: t('deposits.amount'), cell: (r) => `${money(r.amount)} ${r.direction}`, align: 'right' },
              { key: 'status', header: t('deposits.state'), cell: (r) => <DepositBadge state={r.status} label={t(`deposits.lineStatus.${r.status}`, { defaultValue: r.status })} /> },
              { key: 'deposit', header: 'DEP', cell: (r) => r.deposit?.id ?? '—' },
            ]}
          />
        ) : null}
      </Stack>
    </Card>
  );
}
