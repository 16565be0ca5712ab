import { Group, Pagination, ScrollArea, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../format/money.js';

export interface Column<R> {
  key: string;
  /** Already translated header. */
  header: string;
  cell(row: R): ReactNode;
  align?: 'left' | 'right';
}

export interface PageMeta {
  page: number;
  limit: number;
  total: number;
  total_pages?: number;
}

/**
 * A table of rows the server already paged and filtered (the UI never pages over
 * everything), scrolling sideways on a phone.
 */
export function DataTable<R>(props: {
  caption: string;
  columns: Column<R>[];
  rows: R[];
  rowKey(row: R): string;
  meta?: PageMeta;
  /** The server counted its matches up to meta.total and more matched: "10,000+". */
  capped?: boolean;
  onPage?(page: number): void;
}) {
  const { t, i18n } = useTranslation();
  const pages = props.meta ? Math.max(1, props.meta.total_pages ?? Math.ceil(props.meta.total / props.meta.limit)) : 1;
  return (
    <>
      {/* Focusable, so keyboard users can scroll a table wider than a phone. */}
      <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': props.caption }}>
        <Table striped highlightOnHover verticalSpacing="xs" miw={600}>
          <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }} className="visually-hidden">{props.caption}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {props.columns.map((c) => (
                <Table.Th key={c.key} style={{ textAlign: c.align ?? 'left' }} scope="col">{c.header}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={props.columns.length}><Text c="dimmed" size="sm">{t('noRows')}</Text></Table.Td>
              </Table.Tr>
            ) : (
              props.rows.map((r) => (
                <Table.Tr key={props.rowKey(r)}>
                  {props.columns.map((c) => (
                    <Table.Td key={c.key} style={{ textAlign: c.align ?? 'left' }}>{c.cell(r)}</Table.Td>
                  ))}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {props.meta && props.onPage ? (
        <Group justify="space-between" mt="sm" wrap="wrap">
          <Text size="sm" c="dimmed">{props.capped ? t('totalCapped', { n: formatCount(props.meta.total, i18n.language) }) : t('total', { count: props.meta.total })}</Text>
          <Pagination
            total={pages}
            value={props.meta.page}
            onChange={props.onPage}
            size="sm"
            getControlProps={(c) => ({ 'aria-label': c === 'previous' ? t('previous') : c === 'next' ? t('next') : c })}
            getItemProps={(p) => ({ 'aria-label': `${t('page')} ${p}` })}
          />
        </Group>
      ) : null}
    </>
  );
}
