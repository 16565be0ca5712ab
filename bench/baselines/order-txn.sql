-- The service's order transaction, as pgbench runs it: order insert, guarded balance
-- update, ledger insert, job insert, committed together. :rid is the reseller id.
\set r random(1, 1000000000000)
BEGIN;
SELECT gen_random_uuid()::text AS oid \gset
INSERT INTO orders (id, reseller_id, ref_id, product_code, product_name, category_slug, target, zone, price, status, created_at, updated_at)
  VALUES (:oid, :rid, 'pgb-' || :client_id::text || '-' || :r::text, 'FF-100', '100 Diamonds', 'free-fire', '123456789', NULL, 15000, 'processing', 0, 0);
UPDATE resellers SET balance = balance - 15000, updated_at = 0 WHERE id = :rid AND balance >= 15000 RETURNING balance \gset
INSERT INTO ledger_entries (reseller_id, type, amount, balance_after, order_id, note, created_at)
  VALUES (:rid, 'order_debit', -15000, :balance, :oid, NULL, 0);
INSERT INTO jobs (kind, payload, run_at, attempts, created_at) VALUES ('fulfil_order', '{}', 0, 0, 0);
COMMIT;
