import { useSearchParams } from 'react-router';

/**
 * A list's filters and page, kept in the URL (shareable, kept on reload and back). Setting
 * filters goes back to page 1.
 */
export function useUrlFilters<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ''])) as Record<K, string>;
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const apply = (next: Partial<Record<K, string>>) => {
    const p = new URLSearchParams();
    for (const k of keys) {
      const v = (next[k] ?? '').trim();
      if (v) p.set(k, v);
    }
    setParams(p);
  };
  const setPage = (n: number) => {
    const p = new URLSearchParams(params);
    p.set('page', String(n));
    setParams(p);
  };
  return { filters, page, apply, setPage };
}
