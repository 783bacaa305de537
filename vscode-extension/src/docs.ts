// "Open the pattern docs": which pages to offer for the cursor position.  Pure.

export interface DiagnosticInfo {
  readonly source: string | undefined;
  readonly code: string | undefined;
  /** codeDescription.href as the server sent it (`<docsBaseUrl>patterns/<CODE>-<name>.html`). */
  readonly href: string | undefined;
  readonly message: string;
  readonly startLine: number;
  readonly endLine: number;
}

export interface DocsChoice {
  readonly label: string;
  readonly detail: string;
  /** What to hand to the server's `tflsp.openDocs`: the diagnostic's link, else its code. */
  readonly target: string;
}

const CODE = /^TFL\d{3}$/;
// Syntax errors have a code but no pattern page.
const NO_PAGE = new Set(['TFL000']);

/**
 * tflsp diagnostics on the cursor line come first; when there are none, every tflsp
 * diagnostic of the file is offered.  One entry per code; empty when the file has none.
 */
export function docsChoices(diagnostics: readonly DiagnosticInfo[], cursorLine: number): DocsChoice[] {
  const ours = diagnostics.filter((d) => d.source === 'tflsp' && d.code !== undefined && CODE.test(d.code) && !NO_PAGE.has(d.code));
  const here = ours.filter((d) => d.startLine <= cursorLine && cursorLine <= d.endLine);
  const pool = here.length > 0 ? here : ours;
  const seen = new Set<string>();
  const out: DocsChoice[] = [];
  for (const d of pool) {
    const code = d.code as string;
    if (seen.has(code)) {
      continue;
    }
    seen.add(code);
    // The server resolves a bare code to its page (in the user's language) itself.
    out.push({ label: code, detail: d.message, target: d.href ?? code });
  }
  return out;
}
