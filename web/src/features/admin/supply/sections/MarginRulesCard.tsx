import { Card, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { callData } from '../../../../shared/api/client.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { ErrorAlert } from '../../../../shared/ui/QueryState.js';
import { useAdminMoney } from '../../ui/useAdminMoney.js';

type Margin = { percent_bp: number; fixed: number } | undefined;

/** The margin rules an import prices with (read-only here: POST/PUT/DELETE /admin/v1/margin-rules change them). */
export function MarginRulesCard() {
  const { t } = useTranslation();
  const money = useAdminMoney();
  const rules = useQuery({ queryKey: ['admin', 'margin-rules'], queryFn: () => callData(adminApi.GET('/margin-rules')) });
  const margin = (m: Margin) => (m ? `${(m.percent_bp / 100).toFixed(2)}%${m.fixed ? ` + ${money(m.fixed)}` : ''}` : '—');
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">{t('supply.marginRules')}</Title>
      <Text size="sm" mb="sm">{t('supply.marginRulesIntro')}</Text>
      {rules.error ? <ErrorAlert error={rules.error} /> : null}
      <DataTable
        caption={t('supply.marginRules')}
        rows={rules.data?.rules ?? []}
        rowKey={(r) => r.id}
        columns={[
          { key: 'scope', header: t('supply.scope'), cell: (r) => `${t(`supply.scope_${r.scope}`)}: ${r.scope_id}` },
          { key: 'step', header: t('supply.step'), align: 'right', cell: (r) => money(r.step) },
          { key: 'gold', header: 'Gold', align: 'right', cell: (r) => margin(r.tiers.gold) },
          { key: 'platinum', header: 'Platinum', align: 'right', cell: (r) => margin(r.tiers.platinum) },
          { key: 'diamond', header: 'Diamond', align: 'right', cell: (r) => margin(r.tiers.diamond) },
        ]}
      />
    </Card>
  );
}
