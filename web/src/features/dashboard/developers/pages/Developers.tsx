import { Alert, Button, Card, Code, CopyButton, Group, PasswordInput, Stack, Tabs, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callData } from '../../../../shared/api/client.js';
import { dashboardApi } from '../../../../shared/api/dashboard.js';
import { DataTable } from '../../../../shared/table/DataTable.js';
import { PageTitle } from '../../../../shared/ui/PageTitle.js';
import { QueryState } from '../../../../shared/ui/QueryState.js';
import { StateBadge } from '../../../../shared/ui/StateBadge.js';
import { examples } from '../examples.js';
import { expectedSignature } from '../signature.js';

function SignatureChecker() {
  const { t } = useTranslation();
  const [body, setBody] = useState('');
  const [ts, setTs] = useState('');
  const [secret, setSecret] = useState('');
  const [presented, setPresented] = useState('');
  const [expected, setExpected] = useState<string | null>(null);
  return (
    <form onSubmit={async (e) => { e.preventDefault(); setExpected(await expectedSignature(secret, ts.trim(), body)); }}>
      <Stack gap="sm">
        <Textarea label={t('developers.body')} value={body} onChange={(e) => setBody(e.currentTarget.value)} autosize minRows={3} styles={{ input: { fontFamily: 'monospace' } }} />
        <Group grow align="flex-start">
          <TextInput label={t('developers.timestamp')} value={ts} onChange={(e) => setTs(e.currentTarget.value)} placeholder="1767225600000" />
          <PasswordInput label={t('developers.secret')} value={secret} onChange={(e) => setSecret(e.currentTarget.value)} autoComplete="off" />
        </Group>
        <TextInput label={t('developers.presented')} value={presented} onChange={(e) => setPresented(e.currentTarget.value)} />
        <Group><Button type="submit" variant="light">{t('developers.compute')}</Button></Group>
        {expected ? (
          <Stack gap={4}>
            <Text size="sm" fw={600}>{t('developers.expected')}</Text>
            <Code block data-testid="expected-signature">{expected}</Code>
            {presented.trim() ? (
              presented.trim().toLowerCase() === expected
                ? <Alert color="green">{t('developers.matches')}</Alert>
                : <Alert color="red">{t('developers.differs')}</Alert>
            ) : null}
          </Stack>
        ) : null}
      </Stack>
    </form>
  );
}

export default function Developers() {
  const { t } = useTranslation();
  const info = useQuery({ queryKey: ['developer'], queryFn: () => callData(dashboardApi.GET('/developer')) });
  return (
    <>
      <PageTitle>{t('developers.title')}</PageTitle>
      <QueryState query={info}>
        {(d) => {
          const code = examples(d.base_url, d.key_id ?? 'YOUR_API_KEY');
          return (
            <Stack>
              <Card withBorder>
                <Group gap="xl" wrap="wrap">
                  <div><Text size="sm" c="dimmed">{t('developers.baseUrl')}</Text><Code>{d.base_url}</Code></div>
                  <div><Text size="sm" c="dimmed">{t('developers.keyId')}</Text>{d.key_id ? <Code>{d.key_id}</Code> : <Text size="sm">{t('developers.noKey')}</Text>}</div>
                </Group>
              </Card>
              <Card withBorder>
                <Title order={2} size="h4" mb="xs">{t('developers.sandbox')}</Title>
                <Text size="sm" mb="sm">{t('developers.sandboxIntro')}</Text>
                <DataTable
                  caption={t('developers.sandbox')}
                  rows={d.sandbox_accounts}
                  rowKey={(r) => r.target}
                  columns={[
                    { key: 'target', header: t('developers.target'), cell: (r) => <Code>{r.target}</Code> },
                    { key: 'outcome', header: t('developers.outcome'), cell: (r) => <StateBadge state={r.outcome} /> },
                    { key: 'code', header: t('orders.failureCode'), cell: (r) => r.failure_code ?? '—' },
                    { key: 'description', header: t('developers.description'), cell: (r) => r.description },
                  ]}
                />
              </Card>
              <Card withBorder>
                <Title order={2} size="h4" mb="xs">{t('developers.examples')}</Title>
                <Text size="sm" mb="sm">{t('developers.examplesIntro')}</Text>
                <Tabs defaultValue={code[0]!.lang}>
                  <Tabs.List>{code.map((c) => <Tabs.Tab key={c.lang} value={c.lang}>{c.label}</Tabs.Tab>)}</Tabs.List>
                  {code.map((c) => (
                    <Tabs.Panel key={c.lang} value={c.lang} pt="sm">
                      <Group justify="flex-end" mb={4}>
                        <CopyButton value={c.code}>{({ copied, copy }) => <Button size="xs" variant="default" onClick={copy}>{copied ? t('copied') : t('copy')}</Button>}</CopyButton>
                      </Group>
                      <Code block tabIndex={0} aria-label={c.label} style={{ whiteSpace: 'pre', overflowX: 'auto' }}>{c.code}</Code>
                    </Tabs.Panel>
                  ))}
                </Tabs>
              </Card>
              <Card withBorder>
                <Title order={2} size="h4" mb="xs">{t('developers.checker')}</Title>
                <Text size="sm" mb="sm">{t('developers.checkerIntro')}</Text>
                <SignatureChecker />
              </Card>
            </Stack>
          );
        }}
      </QueryState>
    </>
  );
}
