import { Card, Checkbox, Select, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from './QueryState.js';

export interface EmailSettingsApi {
  language(): Promise<{ language: string }>;
  setLanguage(language: string): Promise<{ language: string }>;
  enabled(): Promise<{ enabled: Record<string, boolean> }>;
  setEnabled(changes: Record<string, boolean>): Promise<{ enabled: Record<string, boolean> }>;
}

/**
 * The signed-in person's email settings, the same in both apps: the language of their
 * messages and the optional messages on or off (which ones is the API's answer, not a rule
 * here). Each change is saved at once.
 */
export function EmailSettings({ api }: { api: EmailSettingsApi }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const language = useQuery({ queryKey: ['email-settings', 'language'], queryFn: () => api.language() });
  const enabled = useQuery({ queryKey: ['email-settings', 'enabled'], queryFn: () => api.enabled() });
  const saved = () => notifications.show({ message: t('emailSettings.saved'), color: 'green' });
  const setLanguage = useMutation({
    mutationFn: (v: string) => api.setLanguage(v),
    onSuccess: (d) => { qc.setQueryData(['email-settings', 'language'], d); saved(); },
  });
  const setEnabled = useMutation({
    mutationFn: (changes: Record<string, boolean>) => api.setEnabled(changes),
    onSuccess: (d) => { qc.setQueryData(['email-settings', 'enabled'], d); saved(); },
  });
  const error = language.error ?? enabled.error ?? setLanguage.error ?? setEnabled.error;
  return (
    <Card withBorder maw={640}>
      <Stack>
        <Title order={2} size="h4">{t('emailSettings.title')}</Title>
        <Text size="sm" c="dimmed">{t('emailSettings.intro')}</Text>
        {error ? <ErrorAlert error={error} /> : null}
        <Select
          label={t('emailSettings.language')}
          data={[{ value: 'en', label: 'English' }, { value: 'id', label: 'Bahasa Indonesia' }]}
          value={language.data?.language ?? null}
          disabled={!language.data || setLanguage.isPending}
          allowDeselect={false}
          onChange={(v) => v && setLanguage.mutate(v)}
          maw={280}
        />
        {enabled.data
          ? Object.entries(enabled.data.enabled).map(([template, on]) => (
              <Checkbox
                key={template}
                label={t(`emailSettings.messages.${template}`, { defaultValue: template })}
                checked={on}
                disabled={setEnabled.isPending}
                onChange={(e) => setEnabled.mutate({ [template]: e.currentTarget.checked })}
              />
            ))
          : null}
      </Stack>
    </Card>
  );
}
