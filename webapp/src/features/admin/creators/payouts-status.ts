// A creator's payout status as Stripe reports it (docs/creators.md, Status),
// in words an admin reads.

const LABELS: Record<string, string> = {
  none: 'Not set up',
  details_needed: 'Details needed',
  pending: 'Pending',
  enabled: 'Enabled',
};

export function payoutsLabel(status: string): string {
  return LABELS[status] ?? (status ? status.replace(/_/g, ' ') : 'Not set up');
}
