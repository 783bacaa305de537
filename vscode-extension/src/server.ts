// Owns the language client: finds the interpreter, checks it, starts `python -m tflsp serve`,
// restarts it one at a time, and keeps the status bar in step with what the server reports.
import * as os from 'node:os';
import * as vscode from 'vscode';
import {
  CloseAction,
  DidChangeConfigurationNotification,
  DocumentSelector,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';

import { commandMiddleware, runsUserCode } from './commands';
import { processOptions, resolveInterpreter, ResolvedInterpreter, serverLaunch } from './interpreter';
import { runProbe } from './probe';
import { pythonExtensionInterpreter } from './python';
import { ServerSettings, SettingsReader, toServerSettings } from './settings';
import { showProblem } from './setupProblems';
import { StatusBar } from './statusBar';
import { parseVerifierState, VERIFIER_STATE_NOTIFICATION } from './verifierState';

export const DOCUMENT_SELECTOR: DocumentSelector = [
  { scheme: 'file', language: 'python' },
  { scheme: 'untitled', language: 'python' },
  // Notebook cells: synced as text documents unless the server asks for notebook sync.
  { scheme: 'vscode-notebook-cell', language: 'python' },
];

export class ServerManager implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private queue: Promise<void> = Promise.resolve();
  private stopping = false;
  private restartQueued = false;
  /** launchKey() of the process started last. */
  private launched: string | undefined;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly status: StatusBar,
    /** A directory no workspace controls: the extension's own (see processOptions). */
    private readonly safeDirectory: string,
  ) {}

  get running(): LanguageClient | undefined {
    return this.client?.state === State.Running ? this.client : undefined;
  }

  /**
   * Stop whatever runs and start again.  A call made while one is in flight queues behind it;
   * calls made while one is already queued join that one (a burst of setting changes restarts once).
   */
  restart(reason: string): Promise<void> {
    return this.enqueue(reason, true);
  }

  /**
   * Restart only when what the process is launched with changed (enable, interpreter); otherwise
   * send the settings to the running server, which keeps its warm verifier worker.
   */
  refresh(reason: string): Promise<void> {
    return this.enqueue(reason, false);
  }

  private enqueue(reason: string, force: boolean): Promise<void> {
    if (this.restartQueued) {
      return this.queue;
    }
    this.restartQueued = true;
    this.queue = this.queue
      .then(async () => {
        this.restartQueued = false;
        const launch = await this.resolveLaunch();
        if (!force && this.running && launchKey(launch) === this.launched) {
          await this.sendSettings();
          return;
        }
        await this.stopClient();
        await this.startClient(reason, launch);
      })
      .catch((err: unknown) => {
        this.log.error(`tflsp server start failed: ${String(err)}`);
        this.status.setPhase('failed', String(err));
      });
    return this.queue;
  }

  stop(): Promise<void> {
    this.queue = this.queue.then(() => this.stopClient());
    return this.queue;
  }

  /** Settings changed without needing a new process: tell the running server. */
  async sendSettings(): Promise<void> {
    this.status.setTrust(vscode.workspace.isTrusted, this.settings().verifier.enabled);
    const client = this.running;
    if (client) {
      await client.sendNotification(DidChangeConfigurationNotification.type, { settings: { tflsp: this.settings() } });
    }
  }

  settings(): ServerSettings {
    return toServerSettings(settingsReader(firstFolder()?.uri), vscode.workspace.isTrusted);
  }

  dispose(): void {
    void this.stop();
  }

  private async resolveLaunch(): Promise<Launch> {
    const folder = firstFolder();
    const config = vscode.workspace.getConfiguration('tflsp', folder?.uri);
    if (!config.get<boolean>('enable', true)) {
      return { enabled: false };
    }
    const interpreter = resolveInterpreter({
      setting: config.get('interpreter'),
      pythonExtension: await pythonExtensionInterpreter(folder?.uri, this.log),
      variables: { workspaceFolder: folder?.uri.fsPath, userHome: os.homedir(), env: process.env },
      // Windows installs rarely have a python3.exe.
      fallback: process.platform === 'win32' ? 'python' : 'python3',
    });
    return { enabled: true, interpreter };
  }

  private async startClient(reason: string, launch: Launch): Promise<void> {
    this.launched = launchKey(launch);
    if (!launch.enabled) {
      this.log.info('tflsp.enable is off: not starting the server');
      this.status.setPhase('disabled');
      return;
    }
    const interpreter = launch.interpreter;
    this.status.setPhase('starting');
    this.status.setTrust(vscode.workspace.isTrusted, this.settings().verifier.enabled);
    const spawn = processOptions(this.safeDirectory, process.env);
    this.log.info(`starting the server (${reason}) with ${interpreter.command.join(' ')} [${interpreter.source}]`);

    const probe = await runProbe(interpreter.command, spawn);
    if (probe.kind !== 'ready') {
      const installable = probe.kind === 'missing' || probe.kind === 'outdated' || probe.kind === 'old-python';
      this.status.setPhase(installable ? 'not-installed' : 'failed', `Python: ${interpreter.command.join(' ')}`);
      void showProblem(probe, interpreter, this.log, () => void this.restart('requested after install'));
      return;
    }
    this.log.info(`tflsp ${probe.version} found in ${probe.python}`);

    const server = serverLaunch(interpreter.command);
    const serverOptions: ServerOptions = {
      command: server.command,
      args: server.args,
      transport: TransportKind.stdio,
      options: { cwd: spawn.cwd, env: spawn.env },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: DOCUMENT_SELECTOR,
      diagnosticCollectionName: 'tflsp',
      // Traces go here too, once the channel's log level is Trace (tflsp.trace.server picks how much).
      outputChannel: this.log,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: { tflsp: this.settings() },
      errorHandler: this.errorHandler(),
      middleware: {
        workspace: {
          // Answer the server's workspace/configuration with the mapped settings, not the raw
          // VS Code object (whose defaults would mask pyproject.toml).
          configuration: (params, token, next) => {
            const mapped = params.items.map((item) =>
              item.section === 'tflsp' ? toServerSettings(settingsReader(scope(item.scopeUri)), vscode.workspace.isTrusted) : undefined,
            );
            if (mapped.every((m) => m !== undefined)) {
              return mapped;
            }
            return Promise.resolve(next(params, token)).then((raw) =>
              Array.isArray(raw) ? raw.map((value: unknown, i) => mapped[i] ?? value) : raw,
            );
          },
        },
        // The lenses offer the verifier: none while it is off (Restricted Mode or the setting).
        provideCodeLenses: async (document, token, next) => {
          const lenses = (await next(document, token)) ?? [];
          return this.settings().verifier.enabled ? lenses : lenses.filter((lens) => !runsUserCode(lens.command?.command));
        },
        executeCommand: commandMiddleware(
          this.log,
          (report) => this.status.setVerifier(report),
          () => vscode.workspace.getConfiguration('tflsp').get<string>('docsBaseUrl', ''),
        ),
      },
    };

    const client = new LanguageClient('tflsp', 'tflsp', serverOptions, clientOptions);
    client.onDidChangeState((event) => {
      if (event.newState === State.Running) {
        this.status.setPhase('running', `Python: ${interpreter.command.join(' ')} (tflsp ${probe.version})`);
        void vscode.commands.executeCommand('setContext', 'tflsp.serverRunning', true);
      } else if (event.newState === State.Stopped) {
        void vscode.commands.executeCommand('setContext', 'tflsp.serverRunning', false);
        this.status.setPhase(this.stopping ? 'stopped' : 'failed');
      }
    });
    client.onNotification(VERIFIER_STATE_NOTIFICATION, (params: unknown) => {
      const report = parseVerifierState(params);
      if (report) {
        this.status.setVerifier(report);
      }
    });
    this.client = client;
    await client.start();
  }

  private async stopClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) {
      return;
    }
    this.stopping = true;
    try {
      if (client.isRunning()) {
        await client.stop(5000);
      }
    } catch (err) {
      this.log.warn(`stopping the server: ${String(err)}`);
    } finally {
      this.stopping = false;
      await client.dispose().catch(() => undefined);
    }
  }

  /** Like the default (restart a crashed server a few times) but it also updates the status bar. */
  private errorHandler(): LanguageClientOptions['errorHandler'] {
    const restarts: number[] = [];
    return {
      error: () => ({ action: ErrorAction.Continue }),
      closed: () => {
        const now = Date.now();
        restarts.push(now);
        while (restarts.length > 0 && now - (restarts[0] ?? now) > 3 * 60_000) {
          restarts.shift();
        }
        if (restarts.length <= 4) {
          this.log.warn('the tflsp server exited; restarting it');
          return { action: CloseAction.Restart };
        }
        this.status.setPhase('failed');
        return {
          action: CloseAction.DoNotRestart,
          message: vscode.l10n.t('The tflsp server crashed 5 times in 3 minutes and was not restarted. See the log (tflsp: Show server log).'),
        };
      },
    };
  }
}

type Launch = { enabled: false } | { enabled: true; interpreter: ResolvedInterpreter };

function launchKey(launch: Launch): string {
  return JSON.stringify(launch.enabled ? launch.interpreter.command : null);
}

function firstFolder(): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.[0];
}

function scope(uri: string | undefined): vscode.Uri | undefined {
  return uri ? vscode.Uri.parse(uri) : firstFolder()?.uri;
}

function settingsReader(resource: vscode.Uri | undefined): SettingsReader {
  const config = vscode.workspace.getConfiguration('tflsp', resource);
  return {
    explicit: (key) => {
      const seen = config.inspect(key);
      return seen?.workspaceFolderValue ?? seen?.workspaceValue ?? seen?.globalValue;
    },
    effective: (key) => config.get(key),
  };
}
