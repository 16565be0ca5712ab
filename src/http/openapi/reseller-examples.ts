/**
 * Names and hand-written examples of the reseller API v1's shapes. Names are what generated
 * clients call the types (keyed by the shape's field list, in declared order); examples tell
 * one consistent story (a Mobile Legends top-up) and are checked against their schemas.
 */
export const RESELLER_SHAPE_NAMES: Record<string, string> = {
  'name,label,role,type,required,placeholder,options': 'FormField',
  'value,label': 'FormOption',
  'slug,name,type,validation_supported,form': 'Category',
  'categories': 'CategoryList',
  'code,name,category,category_slug,price,status,type': 'Product',
  'products': 'ProductList',
  'ref_id,product_code,target,zone,price': 'OrderRequest',
  'order_id,order_code,ref_id,product_name,price,status,message': 'OrderCreated',
  'order_id,order_code,ref_id,product_code,product_name,target_id,zone_id,price,status,serial_number,created_at,completed_at,failure_code,failure_reason': 'Order',
  'orders': 'OrderList',
  'category_slug,fields,product_code': 'ValidationRequest',
  'category_slug,valid,verdict,nickname,target,zone': 'ValidationResult',
  'ref_id': 'RefIdRequest',
  'balance,currency': 'Balance',
  'id,type,source,deposit_code,amount,balance_after,order_id,order_code,ref_id,note,created_at': 'LedgerEntry',
  'entries': 'LedgerEntryList',
  'callback_id,round,status,url,attempts,next_attempt_at,attempt_log': 'CallbackDelivery',
  'attempt,started_at,duration_ms,http_status,error,response_snippet': 'CallbackAttempt',
  'ref_id,order_code,deliveries': 'CallbackLog',
  'ref_id,order_code,round,message': 'CallbackResent',
  'ref_id,order_code,status,product_code,product_name,price,serial_number,message,failure_code,failure_reason': 'CallbackPayload',
};

const order = {
  order_id: '0b6f3c2e-8d4a-4f1b-9a7e-2c5d8e1f4a60',
  order_code: 'ORD-0B6F3C2E8D4A',
  ref_id: 'INV-2026-000123',
};
const formField = { name: 'user_id', label: 'User ID', role: 'account_id', type: 'number', required: true, placeholder: '123456789' };
const zoneField = { name: 'zone_id', label: 'Zone ID', role: 'server', type: 'text', required: true, placeholder: '2001' };
const category = { slug: 'mobile-legends', name: 'Mobile Legends', type: 'game', validation_supported: true, form: [formField, zoneField] };
const product = { code: 'ML-86', name: '86 Diamonds', category: 'Mobile Legends', category_slug: 'mobile-legends', price: 15000, status: 'active', type: 'instant' };
const fullOrder = {
  ...order, product_code: 'ML-86', product_name: '86 Diamonds', target_id: '123456789', zone_id: '2001', price: 15000, status: 'success',
  serial_number: 'SRL-7KQ2M9XW4B', created_at: '2026-01-15T08:30:00.000Z', completed_at: '2026-01-15T08:30:04.512Z', failure_code: null, failure_reason: null,
};
const ledger = {
  id: 'le_7d2c91', type: 'order_debit', source: 'order', deposit_code: null, amount: -15000, balance_after: 985000, ...order, note: null, created_at: '2026-01-15T08:30:00.000Z',
};
const attempt = { attempt: 1, started_at: '2026-01-15T08:30:04.600Z', duration_ms: 84, http_status: 200, error: null, response_snippet: 'OK' };
const delivery = { callback_id: 'cb_5e1f0a9d3c', round: 1, status: 'delivered', url: 'https://example-reseller.com/topup/callback', attempts: 1, next_attempt_at: null, attempt_log: [attempt] };

const callback = {
  ref_id: order.ref_id, order_code: order.order_code, status: 'success', product_code: 'ML-86', product_name: '86 Diamonds', price: 15000,
  serial_number: 'SRL-7KQ2M9XW4B', message: 'Order completed', failure_code: null, failure_reason: null,
};

export const RESELLER_EXAMPLES = {
  callback,
  /** By component name. */
  schemas: {
    FormField: formField,
    FormOption: { value: '2001', label: 'Asia (2001)' },
    Category: category,
    CategoryList: { categories: [category] },
    Product: product,
    ProductList: { products: [product] },
    OrderRequest: { ref_id: order.ref_id, product_code: 'ML-86', target: '123456789', zone: '2001', price: 15000 },
    OrderCreated: { ...order, product_name: '86 Diamonds', price: 15000, status: 'processing', message: 'Order received and being processed' },
    Order: fullOrder,
    OrderList: { orders: [fullOrder] },
    ValidationRequest: { category_slug: 'mobile-legends', fields: { user_id: '123456789', zone_id: '2001' }, product_code: 'ML-86' },
    ValidationResult: { category_slug: 'mobile-legends', valid: true, verdict: 'valid', nickname: 'PlayerOne', target: '123456789', zone: '2001' },
    RefIdRequest: { ref_id: order.ref_id },
    Balance: { balance: 985000, currency: 'IDR' },
    LedgerEntry: ledger,
    LedgerEntryList: { entries: [ledger] },
    CallbackAttempt: attempt,
    CallbackDelivery: delivery,
    CallbackLog: { ref_id: order.ref_id, order_code: order.order_code, deliveries: [delivery] },
    CallbackPayload: callback,
    CallbackResent: { ref_id: order.ref_id, order_code: order.order_code, round: 2, message: 'Callback queued' },
  } as Record<string, unknown>,
};
