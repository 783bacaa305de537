import * as vscode from 'vscode';

import { onPythonInterpreterChange } from './python';
import { ServerManager } from './server';
import { RESTART_KEYS } from './settings';
import { StatusBar } from './statusBar';

let manager: ServerManager | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('tflsp', { log: true });
  const status = new StatusBar(true);
  manager = new ServerManager(log, status, context.extensionUri.fsPath);
  const server = manager;
  status.setTrust(vscode.workspace.isTrusted, server.settings().verifier.enabled);

  context.subscriptions.push(
    log,
    status,
    server,
    vscode.commands.registerCommand('tflsp.restart', () => server.restart('restart command')),
    vscode.commands.registerCommand('tflsp.showLog', () => log.show()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (RESTART_KEYS.some((key) => event.affectsConfiguration(key))) {
        void server.refresh('settings changed');
      } else if (event.affectsConfiguration('tflsp')) {
        void server.sendSettings();
      }
    }),
    // Trust turns the verifier on and unlocks workspace values of restricted settings
    // (tflsp.interpreter), which may mean another Python.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void server.refresh('workspace trusted')),
    await onPythonInterpreterChange(() => void server.refresh('Python interpreter changed')),
  );
  void server.restart('activation');
}

export function deactivate(): Promise<void> | undefined {
  return manager?.stop();
}
