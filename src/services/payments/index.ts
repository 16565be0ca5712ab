import type { Logger } from 'pino';
import type { ServiceCore } from '../core.js';
import { GatewayConfig, type MidtransEnv } from './gateway-config.js';
import { GatewayDeposits } from './gateway-deposits.js';
import { GatewayPayments } from './gateway-payments.js';
import type { PaymentGateway } from './gateway-port.js';
import { ReceiveMidtransNotification } from './receive-midtrans-notification.js';

/** Deposits by payment gateway (Midtrans Snap), built once by the composition root. */
export function createPaymentServices(core: ServiceCore, deps: { gateway: PaymentGateway; env: MidtransEnv; logger: Logger; returnOrigin: string | null }) {
  const { db, secrets, clock, ids, currency } = core;
  const config = new GatewayConfig({ db, secrets, clock, currency, env: deps.env });
  return {
    /** Minor-unit exponent of the currency (the routes' amounts are in major units). */
    decimals: currency.decimals,
    config,
    deposits: new GatewayDeposits({ db, dialect: core.dialect, config, gateway: deps.gateway, clock, currency, returnOrigin: deps.returnOrigin, logger: deps.logger }),
    payments: new GatewayPayments({ db, clock, currency }),
    notifications: new ReceiveMidtransNotification({ db, config, gateway: deps.gateway, clock, ids, currency, logger: deps.logger }),
  };
}
export type PaymentServices = ReturnType<typeof createPaymentServices>;
