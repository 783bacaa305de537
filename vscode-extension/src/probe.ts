// Before starting the server, ask the chosen interpreter whether it can run tflsp at all, so the
// user gets one clear message with a fix instead of a crashed server and a stack trace.
import { execFile } from 'node:child_process';

// Kept compatible with old Pythons (no f-strings, no walrus) so that "your Python is too old"
// can be reported instead of a SyntaxError.
export const PROBE_SCRIPT = [
  'import json, sys',
  'out = {"python": sys.executable, "pythonVersion": list(sys.version_info[:3])}',
  'try:',
  '    import importlib.util as u',
  '    import tflsp',
  '    out["tflsp"] = getattr(tflsp, "__version__", "unknown")',
  '    out["server"] = u.find_spec("tflsp.server") is not None',
  '    out["pygls"] = u.find_spec("pygls") is not None',
  'except Exception as exc:',
  '    out["error"] = type(exc).__name__ + ": " + str(exc)',
  'print(json.dumps(out))',
].join('\n');

export const MIN_PYTHON: readonly [number, number] = [3, 10];

export type ProbeResult =
  | { kind: 'ready'; python: string; version: string }
  | { kind: 'missing'; python: string; detail: string }
  | { kind: 'outdated'; python: string; version: string; detail: string }
  | { kind: 'old-python'; python: string; pythonVersion: string }
  | { kind: 'no-interpreter'; detail: string }
  | { kind: 'failed'; detail: string };

export interface ProcessOutcome {
  /** `code` is an errno string (`ENOENT`) when the process could not start, or the exit status. */
  readonly error?: { code?: string | number; message: string; killed?: boolean };
  readonly stdout: string;
  readonly stderr: string;
}

/** Classify what the probe printed.  Pure, so every branch is unit tested. */
export function interpretProbe(outcome: ProcessOutcome): ProbeResult {
  const code = outcome.error?.code;
  if (code === 'ENOENT' || code === 'EACCES') {
    return { kind: 'no-interpreter', detail: outcome.error?.message ?? String(code) };
  }
  if (outcome.error?.killed) {
    return { kind: 'failed', detail: 'the interpreter did not answer in time' };
  }
  const report = lastJsonLine(outcome.stdout);
  if (report === undefined) {
    const detail = (outcome.stderr.trim() || outcome.error?.message || 'no output').split('\n').slice(-3).join('\n');
    return { kind: 'failed', detail };
  }
  const python = typeof report.python === 'string' ? report.python : '';
  const versionParts = Array.isArray(report.pythonVersion) ? report.pythonVersion.map(Number) : [];
  if (versionParts.length >= 2 && compareVersion(versionParts, MIN_PYTHON) < 0) {
    return { kind: 'old-python', python, pythonVersion: versionParts.join('.') };
  }
  if (typeof report.tflsp !== 'string') {
    return { kind: 'missing', python, detail: typeof report.error === 'string' ? report.error : 'tflsp not found' };
  }
  if (report.server !== true) {
    return { kind: 'outdated', python, version: report.tflsp, detail: 'this tflsp has no language server (tflsp.server)' };
  }
  if (report.pygls !== true) {
    return { kind: 'outdated', python, version: report.tflsp, detail: 'pygls, which the language server needs, is not installed' };
  }
  return { kind: 'ready', python, version: report.tflsp };
}

export interface ProbeOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
}

export function runProbe(interpreter: readonly string[], options: ProbeOptions = {}): Promise<ProbeResult> {
  const [command, ...rest] = interpreter;
  if (command === undefined) {
    return Promise.resolve({ kind: 'no-interpreter', detail: 'no interpreter configured' });
  }
  return new Promise((resolve) => {
    execFile(
      command,
      [...rest, '-c', PROBE_SCRIPT],
      { cwd: options.cwd, env: options.env, timeout: options.timeoutMs ?? 30_000, windowsHide: true },
      (error, stdout, stderr) => {
        const err = error as (NodeJS.ErrnoException & { killed?: boolean }) | null;
        resolve(
          interpretProbe({
            error: err ? { code: err.code, message: err.message, killed: err.killed } : undefined,
            stdout: String(stdout),
            stderr: String(stderr),
          }),
        );
      },
    );
  });
}

/** The shell command that installs (or upgrades) tflsp into `interpreter`. */
export function installCommand(interpreter: readonly string[], platform: NodeJS.Platform, upgrade = false): string {
  const words = [...interpreter, '-m', 'pip', 'install', ...(upgrade ? ['--upgrade'] : []), 'tflsp'];
  return words.map((w) => shellQuote(w, platform)).join(' ');
}

export function shellQuote(word: string, platform: NodeJS.Platform): string {
  if (/^[A-Za-z0-9_./:=@%+-]+$/.test(word)) {
    return word;
  }
  if (platform === 'win32') {
    // PowerShell, the default Windows terminal: single quotes, doubled inside; `&` runs a quoted path.
    return `'${word.replace(/'/g, "''")}'`;
  }
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** PowerShell treats a quoted first word as a string, not a command: prefix it with `&`. */
export function terminalLine(command: string, platform: NodeJS.Platform): string {
  return platform === 'win32' && command.startsWith("'") ? `& ${command}` : command;
}

function lastJsonLine(stdout: string): Record<string, unknown> | undefined {
  const lines = stdout.split(/\r?\n/).filter((l) => l.trim().startsWith('{'));
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const parsed: unknown = JSON.parse(lines[i] ?? '');
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
        return parsed as Record<string, unknown>;
      }
    } catch {
      // not the probe's line (a sitecustomize may print); keep looking
    }
  }
  return undefined;
}

function compareVersion(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) {
      return d;
    }
  }
  return 0;
}
