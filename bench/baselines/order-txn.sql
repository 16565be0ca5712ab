-- The service's order transaction (OrdersRepo placeIn / topup_place_orders), as pgbench
-- runs it, one order per transaction: the guarded balance update that also takes the
-- order's and the ledger entry's sequence numbers, the order insert, the ledger insert
-- and the job insert, committed together. :rid is the reseller id. (The order_counts and
-- cache-version triggers fire as they do for the service.) Statements in the service's
-- order: the debit first, so seq is set explicitly and the seq-fill triggers never run.
\set r random(1, 1000000000000)
BEGIN;
UPDATE resellers SET balance = balance - 15000, order_seq = order_seq + 1, ledger_seq = ledger_seq + 1, updated_at = 0
  WHERE id = :rid AND balance >= 15000 RETURNING balance, order_seq, ledger_seq \gset
SELECT gen_random_uuid()::text AS oid \gset
INSERT INTO orders (id, reseller_id, ref_id, product_code, product_name, category_slug, target, zone, price, status, created_at, updated_at, checker_verified, seq)
  VALUES (:oid, :rid, 'pgb-' || :client_id::text || '-' || :r::text, 'FF-100', '100 Diamonds', 'free-fire', '123456789', NULL, 15000, 'processing', 0, 0, 1, :order_seq);
INSERT INTO ledger_entries (reseller_id, type, amount, balance_after, order_id, note, created_at, seq, order_seq)
  VALUES (:rid, 'order_debit', -15000, :balance, :oid, NULL, 0, :ledger_seq, :order_seq);
INSERT INTO jobs (kind, payload, run_at, attempts, created_at) VALUES ('fulfil_order', '{}', 0, 0, 0);
COMMIT;
