// The dashboard's "Chat usage" card: today's allowance as a progress bar,
// and per-model bars (tokens in/out, cost) for today and this month, from
// GET /api/v1/users/usage. Every bar has its numbers in text beside it.

import { useId } from 'react';
import { Button, Card, Heading, Placeholder, Text } from '@aws-amplify/ui-react';
import { errorMessage } from '../../../lib/api-client';
import type { UsageTotals } from '../api/types';
import { useUsage } from '../api/use-usage';
import { allowance, modelBars, modelFigures, modelLabel, monthLabel, rateLimitsText, totalsFigures } from '../usage';
import './usage-card.css';

export const NO_USAGE_TODAY = 'No chat usage yet today';
export const NO_USAGE_MONTH = 'No chat usage yet this month';
export const USAGE_FAILED = 'Chat usage could not be loaded.';

function PeriodUsage({ title, totals, empty }: { title: string; totals: UsageTotals; empty: string }) {
  const id = useId();
  const bars = modelBars(totals.by_model);
  return (
    <section className="usage-period" aria-labelledby={id} data-testid="usage-period">
      <h3 id={id} className="usage-period__title">
        {title}
      </h3>
      {bars.length === 0 ? (
        <p className="usage-empty">{empty}</p>
      ) : (
        <>
          <p className="usage-period__total" data-testid="usage-total">
            {totalsFigures(totals)}
          </p>
          <ul className="usage-models" aria-label={`${title} by model`}>
            {bars.map(({ model, inputPercent, outputPercent }) => (
              <li key={`${model.provider}/${model.model}/${model.demo}`} className="usage-model" data-testid="usage-model">
                <div className="usage-model__head">
                  <span className="usage-model__name">{modelLabel(model)}</span>
                  {model.demo ? <span className="usage-model__badge">demo</span> : null}
                </div>
                <div className="usage-bars" aria-hidden="true">
                  <span className="usage-bars__in" style={{ width: `${inputPercent}%` }} />
                  <span className="usage-bars__out" style={{ width: `${outputPercent}%` }} />
                </div>
                <p className="usage-model__figures">{modelFigures(model)}</p>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function UsageCard() {
  const { data, error, isLoading, mutate } = useUsage();
  const labelId = useId();

  let body;
  if (data) {
    const a = allowance(data.limits);
    const rates = rateLimitsText(data.limits);
    const state = a.exhausted ? 'exhausted' : a.percent >= 80 ? 'high' : 'ok';
    body = (
      <>
        <div className="usage-allowance" data-testid="usage-allowance" data-state={state}>
          <div className="usage-allowance__head">
            <span id={labelId} className="usage-allowance__title">
              Today&apos;s allowance
            </span>
            <time className="usage-allowance__resets" dateTime={data.limits.resets_at || undefined}>
              {a.resets}
            </time>
          </div>
          {a.limited ? (
            <div
              className="usage-meter"
              role="progressbar"
              aria-labelledby={labelId}
              aria-valuemin={0}
              aria-valuemax={a.budget}
              aria-valuenow={Math.min(a.used, a.budget)}
              aria-valuetext={a.summary}
            >
              {/* Any use at all shows as a sliver, never as an empty bar. */}
              <div className="usage-meter__fill" style={{ width: `${a.used > 0 ? Math.max(a.percent, 1) : 0}%` }} />
            </div>
          ) : null}
          <p className="usage-allowance__summary">{a.summary}</p>
          {rates ? <p className="usage-allowance__limits">{rates}</p> : null}
        </div>
        <p className="usage-legend" aria-hidden="true">
          <span className="usage-legend__key usage-legend__key--in" /> input tokens
          <span className="usage-legend__key usage-legend__key--out" /> output tokens
        </p>
        <div className="usage-periods">
          <PeriodUsage title="Today" totals={data.today} empty={NO_USAGE_TODAY} />
          <PeriodUsage title={data.month.month ? `This month (${monthLabel(data.month.month)})` : 'This month'} totals={data.month} empty={NO_USAGE_MONTH} />
        </div>
      </>
    );
  } else if (error) {
    body = (
      <div className="usage-error" role="alert">
        <Text>
          {USAGE_FAILED} {errorMessage(error, 'Please try again.')}
        </Text>
        <Button size="small" onClick={() => void mutate()}>
          Retry
        </Button>
      </div>
    );
  } else if (isLoading) {
    body = (
      <div role="status" aria-label="Loading chat usage" className="usage-skeleton">
        <Placeholder size="large" />
        <Placeholder size="small" />
        <Placeholder size="large" />
      </div>
    );
  } else {
    body = null;
  }

  return (
    <section aria-labelledby="usage-heading" className="dashboard__section" data-testid="chat-usage">
      <Heading level={2} id="usage-heading" className="section-title">
        Chat usage
      </Heading>
      <Card variation="outlined" className="usage-card">
        {body}
      </Card>
    </section>
  );
}
