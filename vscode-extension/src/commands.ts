// The verify/docs commands belong to the server: it lists them in executeCommandProvider and
// vscode-languageclient registers them.  This middleware fills in their arguments when they come
// from the command palette, keeps the verifier away from untrusted workspaces, shows results and
// feeds the verifier state the server returns into the status bar.
import * as vscode from 'vscode';
import { Middleware } from 'vscode-languageclient/node';

import { docsChoices } from './docs';
import { lensArgumentsAt } from './lensTarget';
import { VerifierReport } from './status';
import { parseVerifierState } from './verifierState';

export const VERIFY_CLASS = 'tflsp.verifyClass';
export const VERIFY_FUNCTION = 'tflsp.verifyFunction';
export const VERIFY_CATALOG = 'tflsp.verifyCatalog';
export const RESTART_VERIFIER = 'tflsp.restartVerifier';
export const OPEN_DOCS = 'tflsp.openDocs';
const RUNS_USER_CODE = new Set([VERIFY_CLASS, VERIFY_FUNCTION, VERIFY_CATALOG, RESTART_VERIFIER]);

export function runsUserCode(command: string | undefined): boolean {
  return command !== undefined && RUNS_USER_CODE.has(command);
}

type Next = (command: string, args: unknown[]) => unknown;

interface Outcome {
  ok?: unknown;
  summary?: unknown;
  details?: unknown;
  data?: unknown;
}

export function commandMiddleware(
  log: vscode.LogOutputChannel,
  onVerifierState: (report: VerifierReport) => void,
  docsBaseUrl: () => string,
): Middleware['executeCommand'] {
  return async (command, args: unknown[], next: Next) => {
    if (command === OPEN_DOCS && args.length === 0) {
      return openDocsFromPalette(next, docsBaseUrl());
    }
    if (!RUNS_USER_CODE.has(command)) {
      return next(command, args);
    }
    if (!vscode.workspace.isTrusted) {
      await explainRestrictedMode();
      return undefined;
    }
    let actual = args;
    if ((command === VERIFY_CLASS || command === VERIFY_FUNCTION) && args.length === 0) {
      const found = await argumentsAtCursor(command);
      if (found === undefined) {
        void vscode.window.showInformationMessage(
          command === VERIFY_CLASS
            ? vscode.l10n.t('Put the cursor inside a Keras Layer or Model subclass to verify it.')
            : vscode.l10n.t('Put the cursor inside a tf.function to verify it.'),
        );
        return undefined;
      }
      actual = found;
    }
    log.info(`${command} ${JSON.stringify(actual)}`);
    try {
      // The server reports work-done progress (with a cancel button) for these commands;
      // a second progress notification here would only duplicate it.
      const result: unknown = await Promise.resolve(next(command, actual));
      const state = parseVerifierState((result as Outcome | null)?.data);
      if (state) {
        onVerifierState(state);
      }
      void showOutcome(result, log);
      return result;
    } catch (err) {
      // A refused run carries the verifier state; the server has already shown why.
      const state = parseVerifierState((err as { data?: unknown } | null)?.data);
      if (state) {
        onVerifierState(state);
        return undefined;
      }
      const message = err instanceof Error ? err.message : String(err);
      log.error(`${command} failed: ${message}`);
      void vscode.window.showErrorMessage(`tflsp: ${message}`);
      return undefined;
    }
  };
}

async function explainRestrictedMode(): Promise<void> {
  const manage = vscode.l10n.t('Manage Workspace Trust');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('The tflsp verifier runs your code, so it is off in Restricted Mode. Trust this workspace to use it.'),
    manage,
  );
  if (choice === manage) {
    await vscode.commands.executeCommand('workbench.trust.manage');
  }
}

async function argumentsAtCursor(command: string): Promise<unknown[] | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) {
    return undefined;
  }
  const lenses =
    (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri)) ?? [];
  const infos = lenses
    .filter((lens) => lens.command !== undefined)
    .map((lens) => ({ line: lens.range.start.line, command: lens.command?.command ?? '', args: lens.command?.arguments ?? [] }));
  const lines = editor.document.getText().split(/\r?\n/);
  return lensArgumentsAt(infos, command, editor.selection.active.line, lines);
}

async function showOutcome(result: unknown, log: vscode.LogOutputChannel): Promise<void> {
  if (result === null || typeof result !== 'object') {
    return;
  }
  const outcome = result as Outcome;
  if (typeof outcome.summary !== 'string') {
    return;
  }
  const details = Array.isArray(outcome.details) ? outcome.details.map(String) : [];
  log.info(`verifier: ${outcome.summary}${details.length ? `\n  ${details.join('\n  ')}` : ''}`);
  const more = details.length > 0 ? [vscode.l10n.t('Show Details')] : [];
  const show = outcome.ok === false ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const choice = await show(outcome.summary, ...more);
  if (choice !== undefined) {
    log.show(true);
  }
}

/** From the palette: the pattern of the diagnostic at the cursor, else a pick, else the home page. */
async function openDocsFromPalette(next: Next, baseUrl: string): Promise<unknown> {
  const editor = vscode.window.activeTextEditor;
  const diagnostics = editor ? vscode.languages.getDiagnostics(editor.document.uri) : [];
  const choices = docsChoices(
    diagnostics.map((d) => ({
      source: d.source,
      code: typeof d.code === 'object' ? String(d.code.value) : d.code === undefined ? undefined : String(d.code),
      href: typeof d.code === 'object' ? d.code.target.toString(true) : undefined,
      message: d.message,
      startLine: d.range.start.line,
      endLine: d.range.end.line,
    })),
    editor?.selection.active.line ?? -1,
  );
  if (choices.length === 0) {
    if (baseUrl.trim() === '') {
      // No site is published: the server opens the start page of the installed documentation.
      return next(OPEN_DOCS, []);
    }
    await vscode.env.openExternal(vscode.Uri.parse(baseUrl));
    return undefined;
  }
  const picked =
    choices.length === 1
      ? choices[0]
      : await vscode.window.showQuickPick(
          choices.map((c) => ({ label: c.label, detail: c.detail, target: c.target })),
          { placeHolder: vscode.l10n.t('Which pattern?') },
        );
  return picked ? next(OPEN_DOCS, [picked.target]) : undefined;
}
