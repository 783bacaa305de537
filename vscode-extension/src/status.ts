// What the status bar item says.  Pure: the item itself lives in statusBar.ts.

export type ServerPhase = 'starting' | 'running' | 'stopped' | 'disabled' | 'not-installed' | 'failed';

/** The verifier state as the server last reported it (a custom notification). */
export interface VerifierReport {
  readonly state: string;
  readonly detail?: string;
}

export interface StatusInputs {
  readonly phase: ServerPhase;
  readonly trusted: boolean;
  readonly verifierEnabled: boolean;
  /** Undefined until the server has said anything about its verifier. */
  readonly verifier: VerifierReport | undefined;
  /** Extra line for the tooltip, e.g. why the server failed or which Python it uses. */
  readonly note?: string;
}

export type StatusLevel = 'normal' | 'warning' | 'error';

export interface StatusView {
  readonly text: string;
  readonly tooltip: string;
  readonly level: StatusLevel;
}

/** Message formatter: `vscode.l10n.t` in the editor, a plain `{0}` filler in tests. */
export type Translate = (message: string, ...args: string[]) => string;

const BUSY = new Set(['starting', 'warming', 'busy', 'running', 'importing', 'restarting']);
const BAD = new Set(['error', 'errored', 'crashed', 'failed', 'dead']);
const OFF = new Set(['unavailable', 'stopped', 'missing', 'off']);
const GOOD = new Set(['ready', 'idle', 'warm']);

export function statusView(inputs: StatusInputs, t: Translate): StatusView {
  const note = inputs.note ? `\n\n${inputs.note}` : '';
  switch (inputs.phase) {
    case 'disabled':
      return { text: '$(circle-slash) tflsp', tooltip: t('tflsp is turned off (tflsp.enable).') + note, level: 'normal' };
    case 'not-installed':
      return { text: '$(error) tflsp', tooltip: t('tflsp is not installed for the selected Python.') + note, level: 'error' };
    case 'failed':
      return { text: '$(error) tflsp', tooltip: t('The tflsp server stopped. Run "tflsp: Restart server".') + note, level: 'error' };
    case 'stopped':
      return { text: '$(debug-stop) tflsp', tooltip: t('The tflsp server is not running.') + note, level: 'warning' };
    case 'starting':
      return { text: '$(loading~spin) tflsp', tooltip: t('Starting the tflsp server…') + note, level: 'normal' };
    case 'running':
      return runningView(inputs, t, note);
  }
}

function runningView(inputs: StatusInputs, t: Translate, note: string): StatusView {
  if (!inputs.trusted) {
    return {
      text: `$(shield) tflsp: ${t('verifier off')}`,
      tooltip: t('Restricted mode: linting works, the verifier (which runs your code) is off until you trust this workspace.') + note,
      level: 'normal',
    };
  }
  if (!inputs.verifierEnabled) {
    return {
      text: `$(check) tflsp: ${t('verifier off')}`,
      tooltip: t('The verifier is turned off (tflsp.verifier.enabled).') + note,
      level: 'normal',
    };
  }
  const report = inputs.verifier;
  if (report === undefined) {
    return {
      text: `$(check) tflsp: ${t('verifier unknown')}`,
      tooltip: t('The server has not reported the verifier state yet.') + note,
      level: 'normal',
    };
  }
  const state = report.state.trim().toLowerCase() || 'unknown';
  const icon = BUSY.has(state)
    ? '$(sync~spin)'
    : BAD.has(state)
      ? '$(warning)'
      : GOOD.has(state)
        ? '$(beaker)'
        : OFF.has(state)
          ? '$(circle-slash)'
          : '$(check)';
  const detail = report.detail ? `\n\n${report.detail}` : '';
  return {
    text: `${icon} tflsp: ${t('verifier {0}', state)}`,
    tooltip: t('Verifier worker: {0}', state) + detail + note,
    level: BAD.has(state) ? 'warning' : 'normal',
  };
}
