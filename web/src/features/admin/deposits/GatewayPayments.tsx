/** Gateway payments on the Deposits page: built with the gateway channel (this placeholder renders nothing). */
export function GatewayPayments() {
  return null;
}
