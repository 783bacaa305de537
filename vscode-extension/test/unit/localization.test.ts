import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = join(__dirname, '..', '..', '..');
const read = (rel: string) => readFileSync(join(ROOT, rel), 'utf8');
const json = (rel: string) => JSON.parse(read(rel)) as Record<string, string>;

/** Every string literal passed to vscode.l10n.t (or the status module's `t`). */
function sourceMessages(): Set<string> {
  const out = new Set<string>();
  for (const file of readdirSync(join(ROOT, 'src')).filter((f) => f.endsWith('.ts'))) {
    for (const match of read(join('src', file)).matchAll(/(?:l10n\.t|\bt)\(\s*'((?:[^'\\]|\\.)*)'/g)) {
      out.add((match[1] ?? '').replace(/\\(.)/g, '$1'));
    }
  }
  return out;
}

describe('localization', () => {
  it('translates every runtime message into Japanese, with the same placeholders', () => {
    const messages = sourceMessages();
    assert.ok(messages.size >= 20, `only ${messages.size} messages found: is the regex stale?`);
    const ja = json('l10n/bundle.l10n.ja.json');
    for (const message of messages) {
      const translated = ja[message];
      assert.ok(translated, `no Japanese for: ${message}`);
      const holes = (s: string) => [...s.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();
      assert.deepEqual(holes(translated), holes(message), message);
    }
    for (const key of Object.keys(ja)) {
      assert.ok(messages.has(key), `stale Japanese entry: ${key}`);
    }
  });

  it('has an English and a Japanese text for every %placeholder% in package.json', () => {
    const keys = new Set([...read('package.json').matchAll(/"%([^%"]+)%"/g)].map((m) => m[1] ?? ''));
    const en = json('package.nls.json');
    const ja = json('package.nls.ja.json');
    for (const key of keys) {
      assert.ok(en[key], `package.nls.json lacks ${key}`);
      assert.ok(ja[key], `package.nls.ja.json lacks ${key}`);
    }
    assert.deepEqual(Object.keys(ja).sort(), Object.keys(en).sort());
  });
});
