import { adminApi } from '../../../shared/api/admin.js';
import { call } from '../../../shared/api/client.js';
import type { PageQuery } from '../../../shared/table/usePagedList.js';

export const TIERS = ['gold', 'platinum', 'diamond'] as const;
export type Tier = (typeof TIERS)[number];

/** One server-side page of the reseller search. */
export const fetchResellers = (query: PageQuery) => call(adminApi.GET('/resellers', { params: { query } }));
