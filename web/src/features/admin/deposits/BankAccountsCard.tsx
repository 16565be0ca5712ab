import { Alert, Button, Card, Checkbox, Group, Modal, NativeSelect, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../shared/api/admin.js';
import { callData } from '../../../shared/api/client.js';
import type { components } from '../../../shared/api/generated/admin.js';
import { useApiForm } from '../../../shared/forms/useApiForm.js';
import { DataTable } from '../../../shared/table/DataTable.js';
import { IfCan } from '../auth/Permitted.js';

type Account = components['schemas']['BankAccountSettings'];
type Mapping = components['schemas']['StatementMapping'];
const EMPTY = { bank: '', number: '', holder: '', active: true, mutation_bank_id: '' };
const NO_MAPPING: Mapping = { date: '', description: '', amount: '', credit: '', debit: '', mutation_id: '', decimal: ',', delimiter: 'comma' };

/** Receiving bank accounts: add, edit, and each one's statement columns. */
export function BankAccountsCard() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const accounts = useQuery({ queryKey: ['admin', 'bank-accounts'], queryFn: () => callData(adminApi.GET('/bank-accounts')) });
  const [editing, setEditing] = useState<{ id: string | null; v: typeof EMPTY } | null>(null);
  const [mapping, setMapping] = useState<{ a: Account; m: Mapping } | null>(null);
  const done = () => void qc.invalidateQueries({ queryKey: ['admin'] });
  const save = useApiForm(['bank', 'number', 'holder', 'mutation_bank_id'], {
    mutationFn: (e: { id: string | null; v: typeof EMPTY }) => {
      const body = { ...e.v, mutation_bank_id: e.v.mutation_bank_id.trim() || null };
      return e.id ? callData(adminApi.PUT('/bank-accounts/{id}', { params: { path: { id: e.id } }, body })) : callData(adminApi.POST('/bank-accounts', { body }));
    },
    onSuccess: () => { setEditing(null); done(); },
  });
  const saveMap = useApiForm(['date', 'description', 'amount', 'credit', 'debit', 'mutation_id'], {
    mutationFn: (x: { a: Account; m: Mapping }) => {
      const opt = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);
      return callData(adminApi.PUT('/bank-accounts/{id}/statement-mapping', { params: { path: { id: x.a.id } }, body: {
        date: x.m.date, description: x.m.description, amount: opt(x.m.amount), credit: opt(x.m.credit), debit: opt(x.m.debit), mutation_id: opt(x.m.mutation_id), decimal: x.m.decimal, delimiter: x.m.delimiter,
      } }));
    },
    onSuccess: () => { setMapping(null); done(); },
  });
  const field = (k: keyof typeof EMPTY & string, label: string) => (
    <TextInput label={label} value={String(editing?.v[k] ?? '')} onChange={(e) => { const value = e.currentTarget.value; setEditing((x) => x && { ...x, v: { ...x.v, [k]: value } }); }} error={save.errors.fields[k]} />
  );
  const mapField = (k: 'date' | 'description' | 'amount' | 'credit' | 'debit' | 'mutation_id', label: string) => (
    <TextInput label={label} value={mapping?.m[k] ?? ''} onChange={(e) => { const value = e.currentTarget.value; setMapping((x) => x && { ...x, m: { ...x.m, [k]: value } }); }} error={saveMap.errors.fields[k]} />
  );
  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">{t('deposits.settings.accounts')}</Title>
        <IfCan permission="deposits.manage"><Button size="xs" onClick={() => { save.reset(); setEditing({ id: null, v: { ...EMPTY } }); }}>{t('deposits.settings.add')}</Button></IfCan>
      </Group>
      <DataTable
        caption={t('deposits.settings.accounts')}
        rows={accounts.data?.bank_accounts ?? []}
        rowKey={(r) => r.id}
        columns={[
          { key: 'bank', header: t('deposits.settings.bank'), cell: (r) => r.bank },
          { key: 'number', header: t('deposits.settings.number'), cell: (r) => r.number },
          { key: 'holder', header: t('deposits.settings.holder'), cell: (r) => r.holder },
          { key: 'active', header: t('deposits.settings.active'), cell: (r) => (r.active ? t('deposits.settings.yes') : t('deposits.settings.no')) },
          {
            key: 'act', header: t('deposits.actions'),
            cell: (r) => (
              <IfCan permission="deposits.manage">
                <Group gap={4} wrap="nowrap">
                  <Button size="xs" variant="light" onClick={() => { save.reset(); setEditing({ id: r.id, v: { bank: r.bank, number: r.number, holder: r.holder, active: r.active, mutation_bank_id: r.mutation_bank_id ?? '' } }); }}>{t('deposits.settings.edit')}</Button>
                  <Button size="xs" variant="default" onClick={() => { saveMap.reset(); setMapping({ a: r, m: r.statement_mapping ?? { ...NO_MAPPING } }); }}>{t('deposits.settings.mapping')}</Button>
                </Group>
              </IfCan>
            ),
          },
        ]}
      />
      <Modal opened={!!editing} onClose={() => setEditing(null)} title={editing?.id ? t('deposits.settings.edit') : t('deposits.settings.add')}>
        {editing ? (
          <form noValidate onSubmit={(e) => { e.preventDefault(); save.mutate(editing); }}>
            <Stack gap="sm">
              {field('bank', t('deposits.settings.bank'))}
              {field('number', t('deposits.settings.number'))}
              {field('holder', t('deposits.settings.holder'))}
              {field('mutation_bank_id', t('deposits.settings.mutationBankId'))}
              <Checkbox label={t('deposits.settings.active')} checked={editing.v.active} onChange={(e) => { const active = e.currentTarget.checked; setEditing((x) => x && { ...x, v: { ...x.v, active } }); }} />
              {save.errors.general ? <Alert color="red" role="alert">{save.errors.general}</Alert> : null}
              <Group justify="flex-end"><Button type="submit" loading={save.isPending}>{t('deposits.settings.save')}</Button></Group>
            </Stack>
          </form>
        ) : null}
      </Modal>
      <Modal opened={!!mapping} onClose={() => setMapping(null)} title={mapping ? t('deposits.settings.mappingFor', { account: `${mapping.a.bank} ${mapping.a.number}` }) : ''} size="lg">
        {mapping ? (
          <form noValidate onSubmit={(e) => { e.preventDefault(); saveMap.mutate(mapping); }}>
            <Stack gap="sm">
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {mapField('date', t('deposits.settings.colDate'))}
                {mapField('description', t('deposits.settings.colDescription'))}
                {mapField('amount', t('deposits.settings.colAmount'))}
                {mapField('mutation_id', t('deposits.settings.colId'))}
                {mapField('credit', t('deposits.settings.colCredit'))}
                {mapField('debit', t('deposits.settings.colDebit'))}
                <NativeSelect label={t('deposits.settings.decimal')} value={mapping.m.decimal} onChange={(e) => { const decimal = e.currentTarget.value as Mapping['decimal']; setMapping((x) => x && { ...x, m: { ...x.m, decimal } }); }}
                  data={[{ value: ',', label: '1.000.000,00' }, { value: '.', label: '1,000,000.00' }]} />
                <NativeSelect label={t('deposits.settings.delimiter')} value={mapping.m.delimiter} onChange={(e) => { const delimiter = e.currentTarget.value as Mapping['delimiter']; setMapping((x) => x && { ...x, m: { ...x.m, delimiter } }); }}
                  data={(['comma', 'semicolon', 'tab'] as const).map((d) => ({ value: d, label: t(`deposits.settings.delimiters.${d}`) }))} />
              </SimpleGrid>
              {saveMap.errors.general ? <Alert color="red" role="alert">{saveMap.errors.general}</Alert> : null}
              <Group justify="flex-end"><Button type="submit" loading={saveMap.isPending}>{t('deposits.settings.save')}</Button></Group>
            </Stack>
          </form>
        ) : null}
      </Modal>
    </Card>
  );
}
