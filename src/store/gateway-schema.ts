/** Migration 038: the payment gateway's settings, methods and notification log. */
export interface GatewayTables {
  gateway_settings: GatewaySettingsTable;
  payment_methods: PaymentMethodsTable;
  gateway_notifications: GatewayNotificationsTable;
}

export interface GatewaySettingsTable {
  id: string;
  environment: string;
  /** SecretBox-sealed; never logged or answered. */
  server_key_sealed: string | null;
  client_key: string | null;
  expiry_minutes: number;
  updated_at: number;
}

export interface PaymentMethodsTable {
  code: string;
  enabled: number;
  /** Minor units, of the amount credited. */
  min_amount: number;
  max_amount: number;
  fee_fixed: number;
  /** Basis points of the amount. */
  fee_bps: number;
  fee_mode: string;
  updated_at: number;
}

export interface GatewayNotificationsTable {
  id: string;
  received_at: number;
  order_id: string | null;
  deposit_id: string | null;
  transaction_status: string | null;
  signature_valid: number;
  confirmed_status: string | null;
  outcome: string;
  /** The notification exactly as received (text). */
  body: string;
}
