import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = {
  open: 'blue', review: 'yellow', paid: 'green', expired: 'gray', cancelled: 'gray', failed: 'red', reversed: 'orange',
  matched: 'green', unmatched: 'red', assigned: 'green', handled: 'gray', debit: 'gray', already_imported: 'gray',
};

/** A deposit's, bank mutation's or statement line's state, as the API names it. */
export function DepositBadge(props: { state: string; label: string }) {
  return <Badge color={COLORS[props.state] ?? 'gray'} variant="light" miw="max-content">{props.label}</Badge>;
}
