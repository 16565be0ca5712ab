import { Alert, Badge, Button, ScrollArea, Stack, Table, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../format/dates.js';
import { QueryState } from '../ui/QueryState.js';

interface SessionRow { id: string | null; current: boolean; device: string; ip: string | null; created_at: string; last_used_at: string | null }
interface SignInRow { id: string; at: string; device: string; ip: string; new_device: boolean }

/** The API calls of one app's session list (/auth/sessions, /auth/sign-ins). */
export interface SessionsApi {
  sessions(): Promise<{ sessions: SessionRow[] }>;
  end(id: string): Promise<unknown>;
  signIns(): Promise<{ sign_ins: SignInRow[] }>;
}

/** The Security page's sessions (end any) and recent sign-ins, the same in both apps. */
export function SessionsPanel(props: { api: SessionsApi; queryKey: readonly unknown[] }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const sessions = useQuery({ queryKey: [...props.queryKey, 'sessions'], queryFn: props.api.sessions });
  const signIns = useQuery({ queryKey: [...props.queryKey, 'sign-ins'], queryFn: props.api.signIns });
  const end = useMutation({ mutationFn: props.api.end, onSuccess: () => qc.invalidateQueries({ queryKey: props.queryKey }) });
  const when = (iso: string | null) => (iso ? formatDateTime(iso, i18n.language) : '—');
  return (
    <Stack>
      <Title order={2} size="h3">{t('sessions.title')}</Title>
      {end.error ? <Alert color="red" role="alert">{end.error.message}</Alert> : null}
      <QueryState query={sessions}>
        {(d) => (
          <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('sessions.title') }}>
            <Table data-testid="sessions" miw={560}>
              <Table.Thead><Table.Tr><Table.Th>{t('sessions.device')}</Table.Th><Table.Th>{t('sessions.address')}</Table.Th><Table.Th>{t('sessions.lastUsed')}</Table.Th><Table.Th>{t('sessions.created')}</Table.Th><Table.Th><span className="visually-hidden">{t('sessions.actions')}</span></Table.Th></Table.Tr></Table.Thead>
              <Table.Tbody>
                {d.sessions.map((s, i) => (
                  <Table.Tr key={s.id ?? `earlier-${i}`}>
                    <Table.Td>{s.device}</Table.Td>
                    <Table.Td>{s.ip ?? '—'}</Table.Td>
                    <Table.Td>{when(s.last_used_at)}</Table.Td>
                    <Table.Td>{when(s.created_at)}</Table.Td>
                    <Table.Td>
                      {s.current
                        ? <Badge variant="light">{t('sessions.current')}</Badge>
                        : s.id ? <Button size="xs" variant="light" color="red" loading={end.isPending && end.variables === s.id} onClick={() => end.mutate(s.id!)} aria-label={t('sessions.endOne', { device: s.device })}>{t('sessions.end')}</Button> : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </QueryState>
      <Title order={2} size="h3">{t('sessions.history')}</Title>
      <QueryState query={signIns}>
        {(d) => (
          <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('sessions.history') }}>
            <Table data-testid="sign-ins" miw={480}>
              <Table.Thead><Table.Tr><Table.Th>{t('sessions.when')}</Table.Th><Table.Th>{t('sessions.device')}</Table.Th><Table.Th>{t('sessions.address')}</Table.Th></Table.Tr></Table.Thead>
              <Table.Tbody>
                {d.sign_ins.map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td>{when(s.at)}</Table.Td>
                    <Table.Td>{s.device} {s.new_device ? <Badge size="sm" color="orange" variant="light">{t('sessions.newDevice')}</Badge> : null}</Table.Td>
                    <Table.Td>{s.ip}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </QueryState>
    </Stack>
  );
}
