import { Button, Card, Group, ScrollArea, SimpleGrid, Table, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CsvLink, queryString } from '../ui/CsvLink.js';
import { useUrlFilters } from '../ui/useFilters.js';
import './statement-print.css';

interface Bucket { count: number; amount: number }
type Buckets = { deposits: Bucket; order_debits: Bucket; refunds: Bucket; adjustments: Bucket };
export type StatementData = Buckets & {
  reseller_name: string; from: string; to: string; time_zone: string; utc_offset: string; currency: string;
  opening_balance: number; closing_balance: number; days: (Buckets & { date: string; closing_balance: number })[];
};

const BUCKETS = [['deposits', 'deposits'], ['order_debits', 'orderDebits'], ['refunds', 'refunds'], ['adjustments', 'adjustments']] as const;

/** The statement range, kept in the URL (a link or a reload shows the same statement). */
export const useStatementRange = () => useUrlFilters(['from', 'to'] as const);

/**
 * A statement as a document: the range form and the buttons are hidden in print, and the
 * print stylesheet drops the app's header and menu, so the browser's "Save as PDF" gives
 * the statement alone.
 */
export function StatementView(props: { data: StatementData | undefined; csvHref: string; money: (n: number) => string; title: string }) {
  const { t } = useTranslation();
  const { filters, apply } = useStatementRange();
  const s = props.data;
  return (
    <div data-print="document">
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <Title order={1} size="h2">{props.title}</Title>
        <Group gap="xs" data-print="hide">
          <Button variant="default" size="sm" onClick={() => window.print()}>{t('statement.print')}</Button>
          <CsvLink href={`${props.csvHref}${queryString(filters)}`} />
        </Group>
      </Group>
      <Card withBorder mb="md" data-print="hide">
        <form
          key={JSON.stringify(filters)}
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            apply({ from: String(f.get('from') ?? ''), to: String(f.get('to') ?? '') });
          }}
        >
          <Group align="flex-end" wrap="wrap">
            <TextInput name="from" type="date" label={t('statement.from')} defaultValue={filters.from || s?.from} />
            <TextInput name="to" type="date" label={t('statement.to')} defaultValue={filters.to || s?.to} />
            <Button type="submit" size="sm">{t('statement.show')}</Button>
          </Group>
        </form>
      </Card>
      {s ? (
        <>
          <Text fw={600}>{s.reseller_name}</Text>
          <Text data-testid="statement-period">{t('statement.period', { from: s.from, to: s.to })}</Text>
          <Text size="sm" c="dimmed" mb="md">{t('statement.zone', { zone: s.time_zone, offset: s.utc_offset, currency: s.currency })}</Text>
          <Card withBorder mb="md">
            <Title order={2} size="h4" mb="xs">{t('statement.summary')}</Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Table>
                <Table.Tbody>
                  <Table.Tr data-testid="statement-opening"><Table.Th scope="row">{t('statement.opening')}</Table.Th><Table.Td ta="right">{props.money(s.opening_balance)}</Table.Td></Table.Tr>
                  {BUCKETS.map(([k, label]) => (
                    <Table.Tr key={k} data-testid={`statement-${k}`}>
                      <Table.Th scope="row">{t(`statement.${label}`)} <Text span size="xs" c="dimmed">({t('statement.entries', { count: s[k].count })})</Text></Table.Th>
                      <Table.Td ta="right">{props.money(s[k].amount)}</Table.Td>
                    </Table.Tr>
                  ))}
                  <Table.Tr data-testid="statement-closing"><Table.Th scope="row">{t('statement.closing')}</Table.Th><Table.Td ta="right" fw={700}>{props.money(s.closing_balance)}</Table.Td></Table.Tr>
                </Table.Tbody>
              </Table>
            </SimpleGrid>
          </Card>
          <Card withBorder>
            <Title order={2} size="h4" mb="xs">{t('statement.daily')}</Title>
            {/* Focusable, so keyboard users can scroll it sideways on a phone. */}
            <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('statement.daily') }}>
              <Table striped miw={640}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('statement.date')}</Table.Th>
                    {BUCKETS.map(([k, label]) => <Table.Th key={k} scope="col" ta="right">{t(`statement.${label}`)}</Table.Th>)}
                    <Table.Th scope="col" ta="right">{t('statement.balance')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {s.days.map((d) => (
                    <Table.Tr key={d.date}>
                      <Table.Td>{d.date}</Table.Td>
                      {BUCKETS.map(([k]) => <Table.Td key={k} ta="right">{d[k].count ? props.money(d[k].amount) : '–'}</Table.Td>)}
                      <Table.Td ta="right">{props.money(d.closing_balance)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          </Card>
        </>
      ) : null}
    </div>
  );
}
