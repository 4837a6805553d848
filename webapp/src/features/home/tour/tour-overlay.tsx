import { useEffect, useReducer, useRef } from 'react';
import { Link } from 'react-router';
import { Loader } from '@aws-amplify/ui-react';
import { FEATURES } from '../features';
import {
  FINAL_STEP,
  INITIAL_TOUR,
  recordTourOutcome,
  stepProgress,
  TOUR_FADE_MS,
  tourReducer,
  type TourOutcome,
} from './tour-state';
import './tour-overlay.css';

const TICK_MS = 100;

/** The automatic home-page tour. Mount only for visitors without a recent tour flag. */
export default function TourOverlay({ onFinished }: { onFinished?: () => void }) {
  const [state, dispatch] = useReducer(tourReducer, INITIAL_TOUR);
  const dialogRef = useRef<HTMLDivElement>(null);
  const recorded = useRef(false);

  // Drive the reducer with real elapsed time while something is moving.
  const moving = state.status === 'running' || state.status === 'exiting';
  useEffect(() => {
    if (!moving) return;
    let last = performance.now();
    const t = setInterval(() => {
      const now = performance.now();
      dispatch({ type: 'tick', ms: now - last });
      last = now;
    }, TICK_MS);
    return () => clearInterval(t);
  }, [moving]);

  const record = (outcome: TourOutcome) => {
    if (recorded.current) return;
    recorded.current = true;
    recordTourOutcome(outcome);
  };
  const close = () => {
    record('cancelled');
    dispatch({ type: 'close' });
  };
  // Leaving from the final card (its links) counts as having seen the tour.
  const leaveFromFinalCard = () => {
    record('completed');
    dispatch({ type: 'close' });
  };

  useEffect(() => {
    if (state.outcome && !recorded.current) {
      recorded.current = true;
      recordTourOutcome(state.outcome);
    }
  }, [state.outcome]);

  useEffect(() => {
    if (state.status === 'finished') onFinished?.();
  }, [state.status, onFinished]);

  useEffect(() => {
    dialogRef.current?.focus();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      if (!recorded.current) {
        recorded.current = true;
        recordTourOutcome('cancelled');
      }
      dispatch({ type: 'close' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  if (state.status === 'finished') return null;

  const fading = state.exitStage === 'fading';
  const preparing = state.exitStage === 'preparing';
  const isFinal = state.step === FINAL_STEP;
  const feature = isFinal ? null : FEATURES[state.step];
  const progress = Math.round(stepProgress(state) * 100);
  const paused = state.status === 'paused';

  return (
    <div
      className={`tour${fading ? ' tour--fading' : ''}`}
      style={{ '--tour-fade-ms': `${TOUR_FADE_MS}ms` } as React.CSSProperties}
      data-testid="tour"
      data-tour-status={state.status}
    >
      <div className="tour__backdrop" aria-hidden="true" />
      <div ref={dialogRef} className="tour__card" role="dialog" aria-modal="true" aria-labelledby="tour-title" tabIndex={-1}>
        {preparing || (fading && state.outcome === 'cancelled') ? (
          <div className="tour__preparing" role="status">
            <Loader size="large" />
            <p id="tour-title" className="tour__title">
              Preparing your experience...
            </p>
          </div>
        ) : (
          <>
            <button type="button" className="tour__close icon-button" aria-label="Close tour" onClick={close}>
              <span aria-hidden="true">×</span>
            </button>
            {feature ? (
              <div className="tour__step" key={feature.id}>
                <p className="tour__eyebrow">
                  Step {state.step + 1} of {FINAL_STEP}
                </p>
                <span className="tour__icon" aria-hidden="true">
                  {feature.icon}
                </span>
                <h2 id="tour-title" className="tour__title">
                  {feature.title}
                </h2>
                <p className="tour__text">{feature.text}</p>
              </div>
            ) : (
              <div className="tour__step" key="final">
                <span className="tour__icon" aria-hidden="true">
                  🚀
                </span>
                <h2 id="tour-title" className="tour__title">
                  Ready to Explore?
                </h2>
                <p className="tour__text">Create a free account to get 5 free prompts, or start browsing right away.</p>
                <div className="button-row tour__actions">
                  <Link to="/register" className="button-link button-link--primary" onClick={leaveFromFinalCard}>
                    Get Started Free
                  </Link>
                  <Link to="/marketplace" className="button-link" onClick={leaveFromFinalCard}>
                    Browse Prompts
                  </Link>
                </div>
              </div>
            )}
            <div
              className="tour__progress"
              role="progressbar"
              aria-label="Step progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress}
            >
              <div className="tour__progress-bar" style={{ width: `${progress}%` }} />
            </div>
            <div className="tour__controls">
              <div className="tour__dots">
                {Array.from({ length: FINAL_STEP + 1 }, (_, i) => (
                  <button
                    key={i}
                    type="button"
                    className={`tour__dot${i === state.step ? ' tour__dot--active' : ''}`}
                    aria-label={i === FINAL_STEP ? 'Go to the last card' : `Go to step ${i + 1}`}
                    aria-current={i === state.step ? 'step' : undefined}
                    onClick={() => dispatch({ type: 'goTo', step: i })}
                  />
                ))}
              </div>
              <button type="button" className="button-link tour__pause" onClick={() => dispatch({ type: 'toggle' })}>
                {paused ? 'Resume' : 'Pause'}
              </button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
