/** An API key as lists show it: enough to tell keys apart, never enough to use one. */
export const maskApiKey = (key: string) => (key.length <= 11 ? '…' : `${key.slice(0, 7)}…${key.slice(-4)}`);
