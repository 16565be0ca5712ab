import { ActionIcon, Button, Checkbox, Group, NativeSelect, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface Field {
  name: string;
  label: string;
  role: 'account_id' | 'server' | 'other';
  type: 'text' | 'number' | 'select';
  required?: boolean;
  placeholder?: string;
  options?: { value: string; label: string }[];
}

const ROLES: Field['role'][] = ['account_id', 'server', 'other'];
const TYPES: Field['type'][] = ['text', 'number', 'select'];

/** Options as lines "value=label" (what an operator can type and read at once). */
const optionsText = (o: Field['options']) => (o ?? []).map((x) => `${x.value}=${x.label}`).join('\n');
const parseOptions = (s: string) => s.split('\n').map((l) => l.trim()).filter(Boolean).map((l) => {
  const i = l.indexOf('=');
  return i < 0 ? { value: l, label: l } : { value: l.slice(0, i).trim(), label: l.slice(i + 1).trim() };
});

/** A category's order form, one row per field: name, label, role, type, required, options. */
export function FormEditor(props: { value: Field[]; onChange(f: Field[]): void }) {
  const { t } = useTranslation();
  const set = (i: number, patch: Partial<Field>) => props.onChange(props.value.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  return (
    <Stack gap="xs">
      {props.value.length === 0 ? <Text size="sm" c="dimmed">{t('catalog.noFields')}</Text> : null}
      {props.value.map((f, i) => (
        <Group key={i} align="flex-end" wrap="wrap" gap="xs">
          <TextInput size="xs" label={t('catalog.fieldName')} value={f.name} onChange={(e) => set(i, { name: e.currentTarget.value })} w={120} />
          <TextInput size="xs" label={t('catalog.fieldLabel')} value={f.label} onChange={(e) => set(i, { label: e.currentTarget.value })} w={160} />
          <NativeSelect size="xs" label={t('catalog.role')} value={f.role} onChange={(e) => set(i, { role: e.currentTarget.value as Field['role'] })} data={ROLES.map((r) => ({ value: r, label: t(`catalog.roles.${r}`) }))} />
          <NativeSelect size="xs" label={t('catalog.fieldType')} value={f.type} onChange={(e) => set(i, { type: e.currentTarget.value as Field['type'] })} data={TYPES.map((x) => ({ value: x, label: t(`catalog.fieldTypes.${x}`) }))} />
          <Checkbox size="xs" label={t('catalog.required')} checked={f.required !== false} onChange={(e) => set(i, { required: e.currentTarget.checked })} mb={6} />
          {f.type === 'select' ? (
            <Textarea size="xs" label={t('catalog.options')} autosize minRows={1} value={optionsText(f.options)} onChange={(e) => set(i, { options: parseOptions(e.currentTarget.value) })} w={200} />
          ) : null}
          <ActionIcon variant="light" color="red" aria-label={`${t('remove')} ${f.name || i + 1}`} onClick={() => props.onChange(props.value.filter((_, j) => j !== i))} mb={4}>×</ActionIcon>
        </Group>
      ))}
      <div><Button size="xs" variant="default" onClick={() => props.onChange([...props.value, { name: '', label: '', role: 'other', type: 'text' }])}>{t('catalog.addField')}</Button></div>
    </Stack>
  );
}

/** Only what the API takes: options for select fields alone. */
export const cleanForm = (fields: Field[]) => fields.map((f) => ({
  name: f.name, label: f.label, role: f.role, type: f.type, required: f.required !== false,
  ...(f.placeholder ? { placeholder: f.placeholder } : {}), ...(f.type === 'select' ? { options: f.options ?? [] } : {}),
}));
