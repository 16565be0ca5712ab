import { createApiClient } from './client.js';
import type { paths } from './generated/admin.js';

/** The operator API (/admin/v1), typed from its OpenAPI document. */
export const adminApi = createApiClient<paths>('/admin/v1');
export type { components as AdminSchemas, paths as AdminPaths } from './generated/admin.js';
