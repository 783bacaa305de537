// The Python extension (ms-python.python), when installed, knows which interpreter the user picked.
// Only the few members used here are declared, from its public API (`environments`, with the older
// `settings.getExecutionDetails` as a fallback).
import * as vscode from 'vscode';

const PYTHON_EXTENSION_ID = 'ms-python.python';

interface EnvironmentPath {
  readonly id: string;
  readonly path: string;
}

interface PythonExtensionApi {
  readonly environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): EnvironmentPath;
    resolveEnvironment(env: EnvironmentPath | string): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
    readonly onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
  };
  readonly settings?: {
    getExecutionDetails?(resource?: vscode.Uri): { execCommand: string[] | undefined };
    readonly onDidChangeExecutionDetails?: vscode.Event<unknown>;
  };
}

export function pythonExtensionInstalled(): boolean {
  return vscode.extensions.getExtension(PYTHON_EXTENSION_ID) !== undefined;
}

async function api(): Promise<PythonExtensionApi | undefined> {
  const extension = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION_ID);
  if (extension === undefined) {
    return undefined;
  }
  try {
    return extension.isActive ? extension.exports : await extension.activate();
  } catch {
    return undefined;
  }
}

/** The interpreter command the Python extension selected for `resource`, if any. */
export async function pythonExtensionInterpreter(
  resource: vscode.Uri | undefined,
  log: vscode.LogOutputChannel,
): Promise<string[] | undefined> {
  const python = await api();
  if (python === undefined) {
    return undefined;
  }
  try {
    if (python.environments) {
      const active = python.environments.getActiveEnvironmentPath(resource);
      const resolved = await python.environments.resolveEnvironment(active);
      const executable = resolved?.executable.uri?.fsPath;
      if (executable) {
        return [executable];
      }
    }
    const command = python.settings?.getExecutionDetails?.(resource).execCommand;
    return command && command.length > 0 ? [...command] : undefined;
  } catch (err) {
    log.warn(`could not ask the Python extension for its interpreter: ${String(err)}`);
    return undefined;
  }
}

/** Calls `listener` when the user picks another interpreter in the Python extension. */
export async function onPythonInterpreterChange(listener: () => void): Promise<vscode.Disposable> {
  const python = await api();
  const event = python?.environments?.onDidChangeActiveEnvironmentPath ?? python?.settings?.onDidChangeExecutionDetails;
  return event ? event(() => listener()) : new vscode.Disposable(() => undefined);
}
