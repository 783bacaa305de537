// Which Python runs `python -m tflsp serve`.  Pure logic: the editor glue (python.ts) gathers the
// inputs, so the order can be tested without VS Code.

export type InterpreterSource = 'setting' | 'python-extension' | 'default';

export interface ResolvedInterpreter {
  /** The executable followed by its own arguments, e.g. `["conda", "run", "-n", "tf", "python"]`. */
  readonly command: readonly string[];
  readonly source: InterpreterSource;
}

export interface VariableContext {
  readonly workspaceFolder?: string;
  readonly userHome?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface InterpreterInputs {
  /** `tflsp.interpreter` as the user wrote it (a list, or a bare string by mistake). */
  readonly setting: unknown;
  /** The Python extension's active interpreter; undefined when it is absent or has none. */
  readonly pythonExtension: readonly string[] | undefined;
  readonly variables: VariableContext;
  /** Last resort, `python3` unless a platform needs otherwise. */
  readonly fallback?: string;
}

export const DEFAULT_PYTHON = 'python3';

/**
 * An explicit `tflsp.interpreter` wins, then the Python extension's choice, then `python3`.
 * The setting comes first because it is the only way to point tflsp at a tool environment that
 * differs from the project's interpreter; when it is empty, which is the default, the Python
 * extension decides.
 */
export function resolveInterpreter(inputs: InterpreterInputs): ResolvedInterpreter {
  const fromSetting = normalizeCommand(inputs.setting).map((part) =>
    expandVariables(part, inputs.variables),
  );
  if (fromSetting.length > 0 && fromSetting[0] !== '') {
    return { command: fromSetting, source: 'setting' };
  }
  const fromExtension = normalizeCommand(inputs.pythonExtension);
  if (fromExtension.length > 0 && fromExtension[0] !== '') {
    return { command: fromExtension, source: 'python-extension' };
  }
  return { command: [inputs.fallback ?? DEFAULT_PYTHON], source: 'default' };
}

/** Accept the documented list form and, forgivingly, a single string path. */
export function normalizeCommand(value: unknown): string[] {
  if (typeof value === 'string') {
    return value.trim() === '' ? [] : [value.trim()];
  }
  if (Array.isArray(value)) {
    return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
  }
  return [];
}

/** Expand the variables VS Code users expect in path settings, plus a leading `~`. */
export function expandVariables(value: string, ctx: VariableContext): string {
  let out = value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    if (name === 'workspaceFolder' && ctx.workspaceFolder !== undefined) {
      return ctx.workspaceFolder;
    }
    if (name === 'workspaceFolderBasename' && ctx.workspaceFolder !== undefined) {
      return basename(ctx.workspaceFolder);
    }
    if (name === 'userHome' && ctx.userHome !== undefined) {
      return ctx.userHome;
    }
    if (name.startsWith('env:')) {
      return ctx.env?.[name.slice(4)] ?? '';
    }
    return whole;
  });
  if (ctx.userHome !== undefined && (out === '~' || out.startsWith('~/') || out.startsWith('~\\'))) {
    out = ctx.userHome + out.slice(1);
  }
  return out;
}

export interface ServerLaunch {
  readonly command: string;
  readonly args: string[];
}

/** `python -m tflsp serve`; vscode-languageclient appends `--stdio` itself. */
export function serverLaunch(interpreter: readonly string[]): ServerLaunch {
  const [command, ...rest] = interpreter;
  if (command === undefined) {
    throw new Error('empty interpreter command');
  }
  return { command, args: [...rest, '-m', 'tflsp', 'serve'] };
}

export interface ProcessOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Where and how the probe and the server run.  Never in the workspace: `python -m` and
 * `python -c` put the working directory first on sys.path, so a `tflsp/` folder or a `tflsp.py`
 * in an (untrusted) workspace would run instead of the installed tflsp.  `safeDirectory` is the
 * extension's own folder; PYTHONSAFEPATH (Python 3.11+) drops that entry altogether.
 */
export function processOptions(safeDirectory: string, env: NodeJS.ProcessEnv): ProcessOptions {
  return { cwd: safeDirectory, env: { ...env, PYTHONSAFEPATH: '1', PYTHONUNBUFFERED: '1' } };
}

function basename(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}
