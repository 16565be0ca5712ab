/** The payment-gateway tab of Top up: built with the gateway channel (this placeholder renders nothing). */
export function GatewayDeposit() {
  return null;
}
