import { Statements } from '../statements.js';
import { DashboardReadsRepo } from '../../store/dashboard-reads-repo.js';
import type { ServiceCore } from '../core.js';
import { PasswordResets } from '../password-reset.js';
import { MessageSettings } from '../message-settings.js';
import { ApiKeys } from './api-keys.js';
import { AcceptInvitation } from './invitation.js';
import { AccountOrders } from './orders.js';
import { AccountOverview } from './overview.js';
import { DeveloperInfo } from './developer.js';
import { PriceList } from './price-list.js';
import { AccountProfile } from './profile.js';
import { Registration } from './registration.js';
import { IpWhitelist } from './whitelist.js';
import { BankTickets } from '../deposits/bank-tickets.js';

/** The reseller dashboard API's use cases, built once by the composition root. */
export function createAccountServices(core: ServiceCore) {
  const reads = new DashboardReadsRepo(core.db, core.dialect);
  return {
    registration: new Registration(core),
    invitation: new AcceptInvitation(core),
    passwordResets: new PasswordResets(core),
    language: new MessageSettings(core),
    profile: new AccountProfile(core),
    apiKeys: new ApiKeys(core),
    whitelist: new IpWhitelist(core),
    orders: new AccountOrders(core, reads),
    overview: new AccountOverview(core, reads),
    priceList: new PriceList(core),
    developer: new DeveloperInfo(core),
    bankTickets: new BankTickets(core),
    statements: new Statements(core),
    currency: core.currency,
  };
}
export type AccountServices = ReturnType<typeof createAccountServices>;
