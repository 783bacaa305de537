// The server's verifier-state notification.  Pure, so its parsing is unit tested.
import { VerifierReport } from './status';

export const VERIFIER_STATE_NOTIFICATION = 'tflsp/verifierState';

/** Accepts `{state, detail?}` (detail may also come as `message`/`reason`); anything else is ignored. */
export function parseVerifierState(params: unknown): VerifierReport | undefined {
  if (params === null || typeof params !== 'object') {
    return undefined;
  }
  const record = params as Record<string, unknown>;
  const state = record.state;
  if (typeof state !== 'string' || state.trim() === '') {
    return undefined;
  }
  const detail = [record.detail, record.message, record.reason].find((v): v is string => typeof v === 'string' && v !== '');
  return detail === undefined ? { state } : { state, detail };
}
