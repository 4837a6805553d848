// The home-page tour (SPEC §2, §4) as a pure reducer driven by elapsed time,
// plus its localStorage flags that expire after 2 hours.

import { readJson, removeKey, STORAGE_KEYS, writeJson } from '../../../lib/storage';

export const TOUR_STEP_MS = 4000;
export const TOUR_STEP_COUNT = 4;
/** After the last step the final card stays 3 s, then fades. */
export const TOUR_FINAL_HOLD_MS = 3000;
/** Closing shows 'Preparing your experience...' for 2 to 3 s. */
export const TOUR_PREPARING_MS = 2500;
export const TOUR_FADE_MS = 800;
export const TOUR_FLAG_TTL_MS = 2 * 60 * 60 * 1000;

/** Step index TOUR_STEP_COUNT is the final 'Ready to Explore?' card. */
export const FINAL_STEP = TOUR_STEP_COUNT;

export type TourStatus = 'running' | 'paused' | 'exiting' | 'finished';
export type ExitStage = 'preparing' | 'fading';
export type TourOutcome = 'completed' | 'cancelled';

export interface TourState {
  status: TourStatus;
  step: number;
  /** Milliseconds spent in the current step (or exit stage). */
  elapsed: number;
  exitStage: ExitStage | null;
  outcome: TourOutcome | null;
}

export type TourAction =
  | { type: 'tick'; ms: number }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'toggle' }
  | { type: 'goTo'; step: number }
  | { type: 'close' };

export const INITIAL_TOUR: TourState = { status: 'running', step: 0, elapsed: 0, exitStage: null, outcome: null };

function advance(state: TourState, ms: number): TourState {
  let { step, elapsed } = state;
  elapsed += ms;
  while (step < FINAL_STEP && elapsed >= TOUR_STEP_MS) {
    elapsed -= TOUR_STEP_MS;
    step += 1;
  }
  if (step === FINAL_STEP && elapsed >= TOUR_FINAL_HOLD_MS) {
    return exitTick({ status: 'exiting', step, elapsed: 0, exitStage: 'fading', outcome: 'completed' }, elapsed - TOUR_FINAL_HOLD_MS);
  }
  return { ...state, step, elapsed };
}

function exitTick(state: TourState, ms: number): TourState {
  let elapsed = state.elapsed + ms;
  let stage = state.exitStage;
  if (stage === 'preparing' && elapsed >= TOUR_PREPARING_MS) {
    elapsed -= TOUR_PREPARING_MS;
    stage = 'fading';
  }
  if (stage === 'fading' && elapsed >= TOUR_FADE_MS) {
    return { ...state, status: 'finished', exitStage: null, elapsed: 0 };
  }
  return { ...state, exitStage: stage, elapsed };
}

export function tourReducer(state: TourState, action: TourAction): TourState {
  if (state.status === 'finished') return state;
  switch (action.type) {
    case 'tick':
      if (action.ms <= 0) return state;
      if (state.status === 'running') return advance(state, action.ms);
      if (state.status === 'exiting') return exitTick(state, action.ms);
      return state;
    case 'pause':
      return state.status === 'running' ? { ...state, status: 'paused' } : state;
    case 'resume':
      return state.status === 'paused' ? { ...state, status: 'running' } : state;
    case 'toggle':
      return tourReducer(state, { type: state.status === 'paused' ? 'resume' : 'pause' });
    case 'goTo':
      if (state.status === 'exiting') return state;
      if (action.step < 0 || action.step > FINAL_STEP) return state;
      return { ...state, step: action.step, elapsed: 0 };
    case 'close':
      if (state.status === 'exiting') return state;
      return { status: 'exiting', step: state.step, elapsed: 0, exitStage: 'preparing', outcome: 'cancelled' };
  }
}

/** Progress through the current step, 0..1 (the final card counts its hold time). */
export function stepProgress(state: TourState): number {
  const total = state.step === FINAL_STEP ? TOUR_FINAL_HOLD_MS : TOUR_STEP_MS;
  return Math.min(1, Math.max(0, state.elapsed / total));
}

interface TourFlag {
  at: number;
}

function flagKey(outcome: TourOutcome): string {
  return outcome === 'completed' ? STORAGE_KEYS.tourCompleted : STORAGE_KEYS.tourCancelled;
}

export function recordTourOutcome(outcome: TourOutcome, now: number = Date.now()): void {
  writeJson(flagKey(outcome), { at: now } satisfies TourFlag);
}

function flagActive(key: string, now: number): boolean {
  const flag = readJson<TourFlag>(key);
  if (!flag) return false;
  if (typeof flag.at === 'number' && now - flag.at >= 0 && now - flag.at < TOUR_FLAG_TTL_MS) return true;
  removeKey(key); // expired or malformed
  return false;
}

/** True while a completion or cancel flag younger than 2 hours exists. */
export function isTourSuppressed(now: number = Date.now()): boolean {
  // Evaluate both so that both expired flags get cleaned up.
  const completed = flagActive(STORAGE_KEYS.tourCompleted, now);
  const cancelled = flagActive(STORAGE_KEYS.tourCancelled, now);
  return completed || cancelled;
}
