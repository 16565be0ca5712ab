import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TIERS, type Tier } from './hooks.js';

export function TierSelect(props: { label: string; value: Tier; onChange(t: Tier): void }) {
  const { t } = useTranslation();
  return (
    <NativeSelect
      label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.currentTarget.value as Tier)}
      data={TIERS.map((x) => ({ value: x, label: t(`resellers.tiers.${x}`) }))}
    />
  );
}
