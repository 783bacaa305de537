// One message, with buttons that fix it, when the chosen Python cannot run tflsp.
import * as vscode from 'vscode';

import { ResolvedInterpreter } from './interpreter';
import { installCommand, ProbeResult, terminalLine } from './probe';
import { pythonExtensionInstalled } from './python';

type Problem = Exclude<ProbeResult, { kind: 'ready' }>;

export function describeProblem(problem: Problem, interpreter: ResolvedInterpreter): string {
  const python = interpreter.command.join(' ');
  switch (problem.kind) {
    case 'missing':
      return vscode.l10n.t(
        'tflsp is not installed for {0}. Install it with: {1}',
        problem.python || python,
        installCommand(interpreter.command, process.platform),
      );
    case 'outdated':
      return vscode.l10n.t(
        'tflsp {0} in {1} cannot run the language server ({2}). Upgrade it with: {3}',
        problem.version,
        problem.python || python,
        problem.detail,
        installCommand(interpreter.command, process.platform, true),
      );
    case 'old-python':
      return vscode.l10n.t(
        '{0} is Python {1}; tflsp needs Python 3.10 or newer. Select another interpreter or set tflsp.interpreter.',
        problem.python || python,
        problem.pythonVersion,
      );
    case 'no-interpreter':
      return vscode.l10n.t(
        'Cannot run the Python interpreter "{0}" ({1}). Select an interpreter or set tflsp.interpreter.',
        python,
        problem.detail,
      );
    case 'failed':
      return vscode.l10n.t('Checking tflsp with "{0}" failed: {1}', python, problem.detail);
  }
}

/** Shows the problem and runs the button the user picks; `restart` starts the server again. */
export async function showProblem(
  problem: Problem,
  interpreter: ResolvedInterpreter,
  log: vscode.LogOutputChannel,
  restart: () => void,
): Promise<void> {
  const install = vscode.l10n.t('Install tflsp');
  const upgrade = vscode.l10n.t('Upgrade tflsp');
  const select = vscode.l10n.t('Select Interpreter');
  const settings = vscode.l10n.t('Open Settings');
  const showLog = vscode.l10n.t('Show Log');
  const actions: string[] = [];
  if (problem.kind === 'missing') {
    actions.push(install);
  } else if (problem.kind === 'outdated') {
    actions.push(upgrade);
  }
  if (problem.kind !== 'failed' && pythonExtensionInstalled()) {
    actions.push(select);
  }
  actions.push(problem.kind === 'failed' ? showLog : settings);

  const message = describeProblem(problem, interpreter);
  log.error(message);
  const choice = await vscode.window.showErrorMessage(message, ...actions);
  if (choice === install || choice === upgrade) {
    const terminal = vscode.window.createTerminal({ name: 'tflsp: install' });
    terminal.show();
    terminal.sendText(terminalLine(installCommand(interpreter.command, process.platform, choice === upgrade), process.platform));
    const again = vscode.l10n.t('Restart Server');
    const next = await vscode.window.showInformationMessage(
      vscode.l10n.t('When the installation has finished, restart the tflsp server.'),
      again,
    );
    if (next === again) {
      restart();
    }
  } else if (choice === select) {
    await vscode.commands.executeCommand('python.setInterpreter');
  } else if (choice === settings) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'tflsp.interpreter');
  } else if (choice === showLog) {
    log.show();
  }
}
