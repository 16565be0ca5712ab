import type { AdminSchemas } from '../../../../shared/api/admin.js';
import type { paths } from '../../../../shared/api/generated/admin.js';

type Ok<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;
/** GET /resellers/{id} as the API declares it. */
export type Reseller = Ok<'/resellers/{id}', 'get'>;
export type { AdminSchemas };
