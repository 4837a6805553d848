// Built once, on first use: constructing an Intl.NumberFormat costs far more
// than formatting with it, and a listing formats a price per card.
let usd: Intl.NumberFormat | undefined;

/** SPEC §9: price in USD, 2 decimals. */
export function formatUsd(amount: number): string {
  usd ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return usd.format(amount);
}
