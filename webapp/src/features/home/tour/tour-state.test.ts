import { describe, expect, it } from 'vitest';
import {
  FINAL_STEP,
  INITIAL_TOUR,
  isTourSuppressed,
  recordTourOutcome,
  stepProgress,
  TOUR_FADE_MS,
  TOUR_FINAL_HOLD_MS,
  TOUR_FLAG_TTL_MS,
  TOUR_PREPARING_MS,
  TOUR_STEP_MS,
  tourReducer,
  type TourAction,
  type TourState,
} from './tour-state';

function run(actions: TourAction[], from: TourState = INITIAL_TOUR): TourState {
  return actions.reduce(tourReducer, from);
}
const tick = (ms: number): TourAction => ({ type: 'tick', ms });

describe('tour reducer', () => {
  it('has four 4-second steps, a 3 s final hold, a 2–3 s preparing spinner and a 0.8 s fade', () => {
    expect(TOUR_STEP_MS).toBe(4000);
    expect(FINAL_STEP).toBe(4);
    expect(TOUR_FINAL_HOLD_MS).toBe(3000);
    expect(TOUR_PREPARING_MS).toBeGreaterThanOrEqual(2000);
    expect(TOUR_PREPARING_MS).toBeLessThanOrEqual(3000);
    expect(TOUR_FADE_MS).toBe(800);
  });

  it('starts running on the first step', () => {
    expect(INITIAL_TOUR).toMatchObject({ status: 'running', step: 0, elapsed: 0 });
  });

  it('auto-advances every 4 s', () => {
    expect(run([tick(3999)]).step).toBe(0);
    expect(run([tick(3999), tick(1)]).step).toBe(1);
    expect(run([tick(4000 * 3 + 500)])).toMatchObject({ step: 3, elapsed: 500 });
  });

  it('after the last step shows the final card, waits 3 s, fades 0.8 s, then finishes as completed', () => {
    const atFinal = run([tick(4 * 4000)]);
    expect(atFinal).toMatchObject({ status: 'running', step: FINAL_STEP });
    const fading = run([tick(2999), tick(1)], atFinal);
    expect(fading).toMatchObject({ status: 'exiting', exitStage: 'fading', outcome: 'completed' });
    expect(run([tick(799)], fading).status).toBe('exiting');
    expect(run([tick(800)], fading)).toMatchObject({ status: 'finished', outcome: 'completed' });
  });

  it('pauses and resumes; time does not move while paused', () => {
    const paused = run([tick(1000), { type: 'pause' }, tick(60_000)]);
    expect(paused).toMatchObject({ status: 'paused', step: 0, elapsed: 1000 });
    const resumed = run([{ type: 'toggle' }, tick(3000)], paused);
    expect(resumed).toMatchObject({ status: 'running', step: 1, elapsed: 0 });
  });

  it('jumps to a step with the dots and restarts its timer', () => {
    expect(run([tick(2000), { type: 'goTo', step: 2 }])).toMatchObject({ step: 2, elapsed: 0 });
    expect(run([{ type: 'goTo', step: 9 }]).step).toBe(0);
  });

  it('closing shows the preparing spinner, then fades out, then finishes as cancelled', () => {
    const closing = run([tick(1000), { type: 'close' }]);
    expect(closing).toMatchObject({ status: 'exiting', exitStage: 'preparing', outcome: 'cancelled' });
    expect(run([tick(TOUR_PREPARING_MS - 1)], closing).exitStage).toBe('preparing');
    const fading = run([tick(TOUR_PREPARING_MS)], closing);
    expect(fading).toMatchObject({ status: 'exiting', exitStage: 'fading' });
    expect(run([tick(TOUR_FADE_MS)], fading).status).toBe('finished');
    // Controls do nothing while exiting.
    expect(run([{ type: 'pause' }, { type: 'goTo', step: 1 }, { type: 'close' }], closing)).toEqual(closing);
  });

  it('ignores everything once finished', () => {
    const done = run([{ type: 'close' }, tick(10_000)]);
    expect(done.status).toBe('finished');
    expect(run([{ type: 'resume' }, tick(5000), { type: 'goTo', step: 0 }], done)).toEqual(done);
  });

  it('reports step progress from 0 to 1', () => {
    expect(stepProgress(run([tick(2000)]))).toBe(0.5);
    expect(stepProgress(run([tick(4 * 4000 + 1500)]))).toBe(0.5);
    expect(stepProgress(INITIAL_TOUR)).toBe(0);
  });
});

describe('tour flags', () => {
  const NOW = Date.parse('2025-06-15T12:00:00Z');

  it('no flag: the tour shows', () => {
    expect(isTourSuppressed(NOW)).toBe(false);
  });

  it('a completion or cancel flag hides the tour for 2 hours', () => {
    recordTourOutcome('completed', NOW);
    expect(isTourSuppressed(NOW + TOUR_FLAG_TTL_MS - 1)).toBe(true);
    localStorage.clear();
    recordTourOutcome('cancelled', NOW);
    expect(isTourSuppressed(NOW + 60_000)).toBe(true);
  });

  it('expired flags no longer hide the tour and are removed', () => {
    expect(TOUR_FLAG_TTL_MS).toBe(2 * 60 * 60 * 1000);
    recordTourOutcome('completed', NOW);
    recordTourOutcome('cancelled', NOW);
    expect(isTourSuppressed(NOW + TOUR_FLAG_TTL_MS)).toBe(false);
    expect(localStorage.getItem('tour-completed')).toBeNull();
    expect(localStorage.getItem('tour-cancelled')).toBeNull();
  });

  it('malformed flags are ignored', () => {
    localStorage.setItem('tour-completed', 'yes');
    localStorage.setItem('tour-cancelled', JSON.stringify({ at: 'soon' }));
    expect(isTourSuppressed(NOW)).toBe(false);
  });
});
