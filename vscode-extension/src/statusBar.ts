import * as vscode from 'vscode';

import { ServerPhase, StatusInputs, statusView, VerifierReport } from './status';

/** One status bar item for the server and its verifier worker; click opens the log. */
export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private inputs: StatusInputs;

  constructor(verifierEnabled: boolean) {
    this.item = vscode.window.createStatusBarItem('tflsp.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'tflsp';
    this.item.command = 'tflsp.showLog';
    this.inputs = { phase: 'starting', trusted: vscode.workspace.isTrusted, verifierEnabled, verifier: undefined };
    this.render();
    this.item.show();
  }

  setPhase(phase: ServerPhase, note?: string): void {
    // A new server process knows nothing about the old one's verifier.
    const verifier = phase === 'running' ? this.inputs.verifier : undefined;
    this.update({ phase, note, verifier });
  }

  setVerifier(report: VerifierReport): void {
    this.update({ verifier: report });
  }

  setTrust(trusted: boolean, verifierEnabled: boolean): void {
    this.update({ trusted, verifierEnabled });
  }

  dispose(): void {
    this.item.dispose();
  }

  private update(change: Partial<StatusInputs>): void {
    this.inputs = { ...this.inputs, ...change };
    this.render();
  }

  private render(): void {
    const view = statusView(this.inputs, (message, ...args) => vscode.l10n.t(message, ...args));
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor =
      view.level === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : view.level === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
  }
}
