import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db.js';

/**
 * Also the (kind, run_at) index of job claims, which take callback deliveries first.
 *
 * The order transaction of a whole group as one server-side function (PostgreSQL only):
 * OrdersRepo calls it once per group, so a group costs one round trip and one commit
 * instead of ~6 round trips per order while the hot reseller's row lock is held.
 *
 * Each order runs the same statements as OrdersRepo's placeIn, in the same order, inside
 * its own exception block (a subtransaction, i.e. a savepoint): a duplicate ref_id (the
 * unique index) rolls back that order alone and answers {"e":"dup"}; a short balance
 * answers {"e":"dup"} when the ref_id exists (a duplicate is a duplicate even when broke),
 * else {"e":"balance","balance":n}; a placed order answers {}. Any other error aborts the
 * whole call, so nothing of the group commits and OrdersRepo retries each order alone.
 * Sequence numbers come from the debit, as in placeIn; order_counts and the other
 * triggers fire as for any insert.
 */
export function orderGroups(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      // Claims take one kind at a time (callbacks first, JobsRepo.claim): walk (kind, run_at).
      await db.schema.createIndex('jobs_kind_due').on('jobs').columns(['kind', 'run_at']).execute();
      if (dialect !== 'postgres') return;
      await sql.raw(placeOrdersFunction(false)).execute(db);
    },
  };
}

/**
 * The function's text. `withOrderSeq`: the debit's ledger entry also carries the order's
 * seq (migration 009, whose uniqueness is keyed by it); 007 created it without.
 */
export function placeOrdersFunction(withOrderSeq: boolean): string {
  return `create or replace function topup_place_orders(p jsonb) returns jsonb language plpgsql as $$
  declare
    o jsonb;
    d record;
    bal bigint;
    res jsonb := '[]'::jsonb;
  begin
    for o in select value from jsonb_array_elements(p) loop
      begin
        update resellers
           set balance = balance - (o->>'price')::bigint, order_seq = order_seq + 1, ledger_seq = ledger_seq + 1, updated_at = (o->>'now')::bigint
         where id = o->>'reseller_id' and balance >= (o->>'price')::bigint
        returning balance, order_seq, ledger_seq into d;
        if not found then
          if exists (select 1 from orders where reseller_id = o->>'reseller_id' and ref_id = o->>'ref_id') then
            res := res || jsonb_build_array(jsonb_build_object('e', 'dup'));
          else
            select balance into bal from resellers where id = o->>'reseller_id';
            res := res || jsonb_build_array(jsonb_build_object('e', 'balance', 'balance', coalesce(bal, 0)));
          end if;
        else
          insert into orders (id, reseller_id, ref_id, product_code, product_name, category_slug, target, zone, price, status,
                              serial_number, failure_code, failure_reason, created_at, completed_at, updated_at, checker_verified, seq)
          values (o->>'id', o->>'reseller_id', o->>'ref_id', o->>'product_code', o->>'product_name', o->>'category_slug', o->>'target', o->>'zone',
                  (o->>'price')::bigint, 'processing', null, null, null, (o->>'now')::bigint, null, (o->>'now')::bigint,
                  (o->>'checker_verified')::integer, d.order_seq);
          insert into ledger_entries (reseller_id, type, amount, balance_after, order_id, note, created_at, seq${withOrderSeq ? ', order_seq' : ''})
          values (o->>'reseller_id', 'order_debit', -(o->>'price')::bigint, d.balance, o->>'id', null, (o->>'now')::bigint, d.ledger_seq${withOrderSeq ? ', d.order_seq' : ''});
          insert into jobs (kind, payload, run_at, attempts, locked_until, locked_by, last_error, created_at, group_key)
          values (o->>'job_kind', o->>'job_payload', (o->>'now')::bigint, 0, null, null, null, (o->>'now')::bigint, null);
          res := res || jsonb_build_array('{}'::jsonb);
        end if;
      exception when unique_violation then
        res := res || jsonb_build_array(jsonb_build_object('e', 'dup'));
      end;
    end loop;
    return res;
  end $$`;
}
