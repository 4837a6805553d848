// "Sales": what the creator earned (GET /creators/me/dashboard, USD), per
// prompt and per agent, and Stripe's balance of their account. Counts and amounts only:
// the API never names a buyer.

import { useId } from 'react';
import { Heading, Loader } from '@aws-amplify/ui-react';
import type { CreatorBalance, CreatorDashboard } from '../../../lib/api/use-creator';
import { formatUsd } from '../../../lib/format';

interface SalesSectionProps {
  dashboard: CreatorDashboard | null | undefined;
  loading: boolean;
  failed: boolean;
}

/** An amount in the balance's currency ("usd" → $1.50). */
export function formatMoney(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  if (code === 'USD' || !/^[A-Z]{3}$/.test(code)) return formatUsd(amount);
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).format(amount);
}

function Balance({ dashboard }: { dashboard: CreatorDashboard }) {
  if (dashboard.balance_unavailable) return <p className="creator-muted" data-testid="creator-balance">Balance unavailable</p>;
  const b: CreatorBalance | undefined = dashboard.balance;
  if (!b) return null;
  return (
    <p data-testid="creator-balance">
      Stripe balance: {formatMoney(b.available, b.currency)} available, {formatMoney(b.pending, b.currency)} pending.
    </p>
  );
}

export function SalesSection({ dashboard, loading, failed }: SalesSectionProps) {
  const headingId = useId();
  const totals = dashboard
    ? [
        ['Sales', dashboard.sales.toLocaleString('en-US')],
        ['Gross', formatUsd(dashboard.gross)],
        ['Fees', formatUsd(dashboard.fees)],
        ['Net', formatUsd(dashboard.net)],
        ['Refunds', formatUsd(dashboard.refunds)],
      ]
    : [];

  return (
    <section className="creator-section" aria-labelledby={headingId}>
      <Heading level={2} id={headingId} className="section-title">
        Sales
      </Heading>
      {loading ? (
        <Loader ariaLabel="Loading your sales" />
      ) : failed || !dashboard ? (
        <p className="creator-muted">Your sales could not be loaded.</p>
      ) : (
        <>
          {dashboard.sales === 0 && dashboard.refunds === 0 ? (
            <p className="creator-muted" data-testid="sales-empty">
              No sales yet. When buyers pay for your prompts or agents, your sales and earnings show here.
            </p>
          ) : (
            <dl className="creator-totals" data-testid="sales-totals">
              {totals.map(([label, value]) => (
                <div key={label} className="creator-totals__item">
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
          )}
          {dashboard.prompts.length > 0 && (dashboard.sales > 0 || dashboard.prompts.some((p) => p.free_uses > 0)) ? (
            <div className="creator-table-wrap">
              <table className="creator-table">
                <caption className="creator-visually-hidden">Sales per prompt</caption>
                <thead>
                  <tr>
                    <th scope="col">Prompt</th>
                    <th scope="col">Sales</th>
                    <th scope="col">Net</th>
                    <th scope="col">Free uses</th>
                    <th scope="col">Rating</th>
                  </tr>
                </thead>
                <tbody>
                  {dashboard.prompts.map((p) => (
                    <tr key={p.id}>
                      <th scope="row">{p.title}</th>
                      <td>{p.sales.toLocaleString('en-US')}</td>
                      <td>{formatUsd(p.net)}</td>
                      <td>{p.free_uses.toLocaleString('en-US')}</td>
                      <td>{p.rating_avg > 0 ? p.rating_avg.toFixed(1) : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {(dashboard.agents ?? []).some((a) => a.sales > 0) ? (
            <div className="creator-table-wrap">
              <table className="creator-table" data-testid="agent-sales">
                <caption className="creator-visually-hidden">Sales per agent</caption>
                <thead>
                  <tr>
                    <th scope="col">Agent</th>
                    <th scope="col">Sales</th>
                    <th scope="col">Net</th>
                  </tr>
                </thead>
                <tbody>
                  {(dashboard.agents ?? []).map((a) => (
                    <tr key={a.id}>
                      <th scope="row">{a.name}</th>
                      <td>{a.sales.toLocaleString('en-US')}</td>
                      <td>{formatUsd(a.net)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          <Balance dashboard={dashboard} />
        </>
      )}
    </section>
  );
}
