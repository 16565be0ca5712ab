import type { Selectable } from 'kysely';
import type { OrderRecord } from '../domain/order.js';
import type { OrdersTable } from './schema.js';

/** An orders row as the domain's record (every repo that reads orders maps them so). */
export function toRecord(r: Selectable<OrdersTable>): OrderRecord {
  return {
    id: r.id, resellerId: r.reseller_id, refId: r.ref_id, productCode: r.product_code, productName: r.product_name,
    target: r.target, zone: r.zone, price: Number(r.price), status: r.status, serialNumber: r.serial_number,
    failureCode: r.failure_code, failureReason: r.failure_reason, createdAt: Number(r.created_at),
    completedAt: r.completed_at === null ? null : Number(r.completed_at),
  };
}
