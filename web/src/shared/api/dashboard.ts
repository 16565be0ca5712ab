import { createApiClient } from './client.js';
import type { paths } from './generated/dashboard.js';

/** The reseller dashboard API (/dashboard/v1), typed from its OpenAPI document. */
export const dashboardApi = createApiClient<paths>('/dashboard/v1');
export type { components as DashboardSchemas, paths as DashboardPaths } from './generated/dashboard.js';
