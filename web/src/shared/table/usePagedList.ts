import { useQuery } from '@tanstack/react-query';
import { useUrlFilters } from '../ui/useFilters.js';

/** What the list APIs take for one page: the filters that are set, `page` and `limit`. */
export type PageQuery = Record<string, string>;

export function pageQuery(filters: Record<string, string | undefined>, page: number, limit = 20): PageQuery {
  const set = Object.entries(filters).filter((e): e is [string, string] => !!e[1]);
  return { ...Object.fromEntries(set), page: String(page), limit: String(limit) };
}

/** One server-side page (never the whole list), kept on screen while the next one loads. */
export function usePage<D>(queryKey: readonly unknown[], query: PageQuery, fetchPage: (q: PageQuery) => Promise<D>) {
  return useQuery({ queryKey: [...queryKey, query], queryFn: () => fetchPage(query), placeholderData: (prev) => prev });
}

/**
 * A filtered, paged table: its filters and page live in the URL (useUrlFilters), and `list`
 * is the page they select. `fixed` filters always apply (the approvals queue: pending only).
 */
export function usePagedList<K extends string, D>(
  keys: readonly K[],
  queryKey: readonly unknown[],
  fetchPage: (q: PageQuery) => Promise<D>,
  opts: { fixed?: Record<string, string>; limit?: number } = {},
) {
  const url = useUrlFilters(keys);
  const list = usePage(queryKey, pageQuery({ ...url.filters, ...opts.fixed }, url.page, opts.limit), fetchPage);
  return { ...url, list };
}
