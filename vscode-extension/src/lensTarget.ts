// "Verify the class/function at the cursor" from the command palette: reuse the server's own
// code lenses, which already know which classes and tf.functions can be verified, and pick the
// one whose block contains the cursor.  Pure.

export interface LensInfo {
  readonly line: number;
  readonly command: string;
  readonly args: readonly unknown[];
}

/** The arguments of the innermost `command` lens whose class/def block contains `cursorLine`. */
export function lensArgumentsAt(
  lenses: readonly LensInfo[],
  command: string,
  cursorLine: number,
  lines: readonly string[],
): unknown[] | undefined {
  const candidates = lenses
    .filter((lens) => lens.command === command && lens.line <= cursorLine)
    .sort((a, b) => b.line - a.line);
  for (const lens of candidates) {
    if (cursorLine <= blockEnd(lines, lens.line)) {
      return [...lens.args];
    }
  }
  return undefined;
}

/** Last line of the `class`/`def` statement that starts at `line` (decorators skipped). */
export function blockEnd(lines: readonly string[], line: number): number {
  let header = line;
  while (header < lines.length && /^\s*@/.test(lines[header] ?? '')) {
    header++;
  }
  const indent = indentation(lines[header] ?? '');
  let end = header;
  for (let i = header + 1; i < lines.length; i++) {
    const text = lines[i] ?? '';
    if (text.trim() === '' || text.trim().startsWith('#')) {
      continue;
    }
    // A closing bracket at the header's indentation ends a multi-line signature, not the block.
    if (indentation(text) <= indent && !/^\s*[)\]}]/.test(text)) {
      break;
    }
    end = i;
  }
  return end;
}

function indentation(text: string): number {
  return text.length - text.trimStart().length;
}
