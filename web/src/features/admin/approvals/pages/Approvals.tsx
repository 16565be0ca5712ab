import { SegmentedControl, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../../shared/api/admin.js';
import { call } from '../../../../shared/api/client.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { QueryState } from '../../../../shared/ui/QueryState.js';
import { ApprovalsTable } from '../ApprovalsTable.js';

const FILTERS = ['pending', 'approved', 'rejected', 'failed', 'cancelled', 'all'] as const;

/** Every four-eyes request, by state: pending first (oldest first), the decided ones newest first. */
export default function Approvals() {
  const { t } = useTranslation();
  const [state, setState] = useState<(typeof FILTERS)[number]>('pending');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['admin', 'approvals', state, page],
    queryFn: () => call(adminApi.GET('/approvals', { params: { query: { ...(state === 'all' ? {} : { state }), page: String(page), limit: '20' } } })),
  });
  return (
    <>
      <PageTitle>{t('approvals.title')}</PageTitle>
      <Stack>
        <SegmentedControl
          aria-label={t('approvals.state')}
          value={state}
          onChange={(v) => { setState(v as typeof state); setPage(1); }}
          data={FILTERS.map((f) => ({ value: f, label: f === 'all' ? t('approvals.all') : t(`approvals.states.${f}`) }))}
          style={{ overflowX: 'auto', maxWidth: '100%' }}
        />
        <QueryState query={list}>
          {(r) => <ApprovalsTable rows={r.data.requests} caption={t('approvals.title')} meta={r.meta as never} onPage={setPage} />}
        </QueryState>
      </Stack>
    </>
  );
}
