import { parseOrderRequest } from '../domain/order-request.js';
import { zoneFitsForm, zoneHelp } from '../domain/order-zone.js';
import type { OrderRecord } from '../domain/order.js';
import { toMajor } from '../domain/money.js';
import { AppError, isAppError } from '../errors.js';
import { noMetrics, type Metrics } from './metrics.js';
import type { CatalogCache } from './catalog-cache.js';
import { DuplicateRefId, InsufficientBalance, type OrdersRepo } from '../store/orders-repo.js';
import type { AccountChecker } from '../adapters/checkers/types.js';
import type { Clock, CurrencySettings, IdGenerator } from './ports.js';
import type { ResellerPrincipal } from './authenticate.js';
import { refusesOrder } from '../domain/account-check.js';
import { checkWithTimeout, REFUSAL_MESSAGES } from './check-account.js';
import type { SupplierGate } from './supplier-gate.js';

const duplicate = (refId: string) =>
  new AppError('DUPLICATE_REF_ID', `an order with ref_id "${refId}" already exists; read it with GET /order-status, or use a new ref_id for a new order`);

/** POST /order: validate, check the product, price and supply, then charge and enqueue atomically. */
export class PlaceOrder {
  constructor(
    private readonly deps: {
      orders: OrdersRepo;
      catalog: CatalogCache;
      gate: SupplierGate;
      checker: AccountChecker;
      checkerTimeoutMs: number;
      clock: Clock;
      ids: IdGenerator;
      currency: CurrencySettings;
      /** Told after an order commits, so the in-process worker starts at once. */
      onPlaced?: () => void;
      metrics?: Metrics;
    },
  ) {}

  /** `requestId` travels with the order's jobs, so its fulfilment and callback logs name it. */
  async execute(who: ResellerPrincipal, body: unknown, requestId?: string): Promise<OrderRecord> {
    const metrics = this.deps.metrics ?? noMetrics;
    try {
      const order = await this.place(who, body, requestId);
      metrics.orderPlaced('accepted');
      return order;
    } catch (e) {
      metrics.orderPlaced(isAppError(e) ? e.code : 'INTERNAL_ERROR');
      throw e;
    }
  }

  private async place(who: ResellerPrincipal, body: unknown, requestId: string | undefined): Promise<OrderRecord> {
    const { orders, catalog, gate, checker, clock, ids, currency } = this.deps;
    const req = parseOrderRequest(body, currency.decimals);

    const product = await catalog.findProduct(who, req.productCode);
    if (!product) return this.refuse(who.resellerId, req.refId, new AppError('PRODUCT_NOT_FOUND', `product_code "${req.productCode}" is not a product available to you; see GET /products`));

    const serverFields = product.form.filter((f) => f.role === 'server');
    if (serverFields.length > 0 && req.zone === null) {
      return this.refuse(who.resellerId, req.refId, new AppError('VALIDATION_ERROR', `zone is required for ${product.categoryName}: ${zoneHelp(serverFields)}`));
    }
    if (serverFields.length > 0 && req.zone !== null && !zoneFitsForm(serverFields, req.zone)) {
      return this.refuse(who.resellerId, req.refId, new AppError('VALIDATION_ERROR', `zone "${req.zone}" does not fit the form of ${product.categoryName}: ${zoneHelp(serverFields)}`));
    }

    if (req.expectedPrice !== null && req.expectedPrice !== product.price) {
      return this.refuse(who.resellerId, req.refId, new AppError('PRICE_NOT_MATCH', `price does not match the current price ${toMajor(product.price, currency.decimals)} ${currency.code}; read GET /products again, or omit price`));
    }

    if (!(await gate.accepting(product.code, who.versions))) {
      return this.refuse(who.resellerId, req.refId, new AppError('ORDER_FAILED_SUPPLIER_GATE', 'no supplier is available for this product right now; no order was created and nothing was charged; retry later with the same ref_id'));
    }

    // Pre-order ID check, before any charge: only a definitive verdict refuses.
    let checkerVerified = false;
    if (product.checkerEnabled) {
      const zone = serverFields.length > 0 ? req.zone : null;
      const verdict = await checkWithTimeout(checker, { categorySlug: product.categorySlug, target: req.target, zone, productCode: product.code }, this.deps.checkerTimeoutMs);
      if (refusesOrder(verdict.verdict)) {
        return this.refuse(who.resellerId, req.refId, new AppError(verdict.verdict, REFUSAL_MESSAGES[verdict.verdict]));
      }
      checkerVerified = verdict.verdict === 'valid';
    }

    try {
      const order = await orders.placeWithDebit(
        {
          id: ids.uuid(),
          resellerId: who.resellerId,
          refId: req.refId,
          productCode: product.code,
          productName: product.name,
          categorySlug: product.categorySlug,
          target: req.target,
          zone: serverFields.length > 0 ? req.zone : null,
          price: product.price,
          checkerVerified,
          requestId,
        },
        clock.now(),
      );
      this.deps.onPlaced?.();
      return order;
    } catch (e) {
      if (e instanceof DuplicateRefId) throw duplicate(req.refId);
      if (e instanceof InsufficientBalance) {
        throw new AppError('INSUFFICIENT_BALANCE', `balance ${toMajor(e.balance, currency.decimals)} ${currency.code} is lower than the price ${toMajor(product.price, currency.decimals)} ${currency.code}; top up your wallet`);
      }
      throw e;
    }
  }

  /**
   * A retry of an accepted order is a duplicate, whatever changed since (price, product,
   * supplier gate, checker): every refusal first asks whether the ref_id is taken. An
   * order that passes every check learns it at commit (the unique index), so a new ref_id,
   * the common case, costs no lookup of its own (~13 µs of the event loop an order on
   * SQLite, a round trip on PostgreSQL). A retry may cost a checker call.
   */
  private async refuse(resellerId: string, refId: string, err: AppError): Promise<never> {
    if (await this.deps.orders.refExists(resellerId, refId)) throw duplicate(refId);
    throw err;
  }
}
