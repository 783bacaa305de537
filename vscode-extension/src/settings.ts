// VS Code settings (`tflsp.*`) -> the settings object the language server reads.  One function,
// one table: every key the server gets is decided here, and nowhere else.

/**
 * Reads one `tflsp.*` setting.  `explicit` is the value a user wrote at any level (user,
 * workspace, folder) or undefined; `effective` also falls back to the default in package.json.
 */
export interface SettingsReader {
  explicit(key: string): unknown;
  effective(key: string): unknown;
}

/**
 * Lint settings: only values the user wrote are sent, so `[tool.tflsp]` in pyproject.toml keeps
 * working for everything the editor does not override (the server layers editor over pyproject,
 * and an editor default such as `targetKeras: "auto"` would otherwise mask the project's choice).
 * Keys use the pyproject spelling that `tflsp/settings.py` defines.
 */
const LINT_KEYS: ReadonlyArray<readonly [vscodeKey: string, serverKey: string, kind: Kind]> = [
  ['select', 'select', 'codes'],
  ['extendSelect', 'extend-select', 'codes'],
  ['ignore', 'ignore', 'codes'],
  ['severity', 'severity', 'severity'],
  ['targetKeras', 'target-keras', 'enum:auto,3,2'],
  ['lang', 'lang', 'enum:auto,en,ja'],
  ['docsBaseUrl', 'docs-base-url', 'url'],
];

type Kind = 'codes' | 'severity' | 'url' | `enum:${string}`;

const SEVERITIES = new Set(['error', 'warning', 'info', 'hint']);

export interface VerifierSettings {
  /** Off whenever the workspace is not trusted: the verifier executes the user's code. */
  readonly enabled: boolean;
  /** Seconds one verification may run before the worker is killed. */
  readonly timeout: number;
  /** Start the worker (and import TensorFlow) right away instead of on first use. */
  readonly prewarm: boolean;
}

export type ServerSettings = Record<string, unknown> & { verifier: VerifierSettings };

export const DEFAULT_VERIFIER_TIMEOUT = 60;

export function toServerSettings(read: SettingsReader, trusted: boolean): ServerSettings {
  const out: Record<string, unknown> = {};
  for (const [vscodeKey, serverKey, kind] of LINT_KEYS) {
    const value = clean(read.explicit(vscodeKey), kind);
    if (value !== undefined) {
      out[serverKey] = value;
    }
  }
  const timeout = Number(read.effective('verifier.timeout'));
  const verifier: VerifierSettings = {
    enabled: trusted && read.effective('verifier.enabled') !== false,
    timeout: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_VERIFIER_TIMEOUT,
    prewarm: trusted && read.effective('verifier.prewarm') === true,
  };
  return { ...out, verifier };
}

/** Settings whose change needs a new server process; the rest travel in didChangeConfiguration. */
export const RESTART_KEYS: readonly string[] = ['tflsp.enable', 'tflsp.interpreter'];

function clean(value: unknown, kind: Kind): unknown {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (kind === 'codes') {
    const list = typeof value === 'string' ? value.split(/[\s,]+/) : Array.isArray(value) ? value : [];
    return list.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
  }
  if (kind === 'severity') {
    if (typeof value !== 'object' || Array.isArray(value)) {
      return undefined;
    }
    const table: Record<string, string> = {};
    for (const [code, level] of Object.entries(value as Record<string, unknown>)) {
      if (typeof level === 'string' && SEVERITIES.has(level.toLowerCase())) {
        table[code.trim().toUpperCase()] = level.toLowerCase();
      }
    }
    return table;
  }
  if (kind === 'url') {
    const text = typeof value === 'string' ? value.trim() : '';
    return text === '' ? undefined : text;
  }
  const allowed = kind.slice('enum:'.length).split(',');
  if (typeof value !== 'string' && typeof value !== 'number') {
    return undefined;
  }
  const text = String(value).toLowerCase().replace(/^keras/, '');
  return allowed.includes(text) ? text : undefined;
}
