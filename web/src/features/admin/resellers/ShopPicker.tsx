import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../../shared/api/admin.js';
import { callData } from '../../../shared/api/client.js';

/**
 * A shop chosen by its name or email, suggested as the operator types (the reseller
 * search's own `q`); the form gets the shop's id under `name`.
 */
export function ShopPicker(props: { name: string; label: string; defaultValue: string; w?: number }) {
  const { t } = useTranslation();
  const [value, setValue] = useState<string | null>(props.defaultValue || null);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 200);
  const found = useQuery({
    queryKey: ['admin', 'shop-picker', q],
    queryFn: () => callData(adminApi.GET('/resellers', { params: { query: { q, limit: '10' } } })),
    enabled: q.length >= 2,
  });
  // The chosen shop by id (a filter from the URL), so it shows by its name.
  const chosen = useQuery({
    queryKey: ['admin', 'reseller', value],
    queryFn: () => callData(adminApi.GET('/resellers/{id}', { params: { path: { id: value! } } })),
    enabled: value !== null,
    retry: false,
  });
  const options = new Map<string, string>();
  if (chosen.data) options.set(chosen.data.id, `${chosen.data.name} · ${chosen.data.email}`);
  for (const r of found.data?.resellers ?? []) options.set(r.id, `${r.name} · ${r.email}`);
  return (
    <Select
      name={props.name}
      label={props.label}
      placeholder={t('orders.shopPlaceholder')}
      searchable
      clearable
      w={props.w}
      data={[...options].map(([id, label]) => ({ value: id, label }))}
      value={value}
      onChange={setValue}
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={q.length >= 2 && !found.isFetching ? t('orders.noShop') : undefined}
      filter={({ options: o }) => o}
    />
  );
}
