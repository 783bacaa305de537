import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { RESTART_KEYS, SettingsReader, toServerSettings } from '../../src/settings';

const EXTENSION_ROOT = join(__dirname, '..', '..', '..');
interface Manifest {
  contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
}
const manifest = JSON.parse(readFileSync(join(EXTENSION_ROOT, 'package.json'), 'utf8')) as Manifest;
const properties = manifest.contributes.configuration.properties;

/** A reader over what a user wrote, with package.json defaults behind it (as VS Code does). */
function reader(written: Record<string, unknown>): SettingsReader {
  return {
    explicit: (key) => written[key],
    effective: (key) => (key in written ? written[key] : properties[`tflsp.${key}`]?.default),
  };
}

describe('toServerSettings', () => {
  it('sends nothing but the verifier block when the user set nothing', () => {
    assert.deepEqual(toServerSettings(reader({}), true), {
      verifier: { enabled: true, timeout: 60, prewarm: false },
    });
  });

  it('uses the pyproject spelling for the keys the user set', () => {
    const out = toServerSettings(
      reader({
        select: ['TFL1'],
        extendSelect: ['TFL701'],
        ignore: ['TFL108'],
        severity: { tfl108: 'Warning' },
        targetKeras: '2',
        lang: 'ja',
        docsBaseUrl: 'https://example.org/tflsp/',
      }),
      true,
    );
    assert.deepEqual(out, {
      select: ['TFL1'],
      'extend-select': ['TFL701'],
      ignore: ['TFL108'],
      severity: { TFL108: 'warning' },
      'target-keras': '2',
      lang: 'ja',
      'docs-base-url': 'https://example.org/tflsp/',
      verifier: { enabled: true, timeout: 60, prewarm: false },
    });
  });

  it('keeps an explicit empty select (only syntax errors) but drops a null one', () => {
    assert.deepEqual(toServerSettings(reader({ select: [] }), true).select, []);
    assert.equal('select' in toServerSettings(reader({ select: null }), true), false);
  });

  it('repairs forgivable values and drops invalid ones', () => {
    const out = toServerSettings(
      reader({
        ignore: 'TFL101, TFL102  TFL103',
        targetKeras: 'keras3',
        lang: 'fr',
        severity: { TFL101: 'fatal', TFL102: 'hint' },
        docsBaseUrl: '  ',
        'verifier.timeout': -5,
      }),
      true,
    );
    assert.deepEqual(out.ignore, ['TFL101', 'TFL102', 'TFL103']);
    assert.equal(out['target-keras'], '3');
    assert.equal('lang' in out, false);
    assert.deepEqual(out.severity, { TFL102: 'hint' });
    assert.equal('docs-base-url' in out, false);
    assert.equal(out.verifier.timeout, 60);
  });

  it('turns the verifier and pre-warming off in an untrusted workspace', () => {
    const written = { 'verifier.enabled': true, 'verifier.prewarm': true, 'verifier.timeout': 15 };
    assert.deepEqual(toServerSettings(reader(written), true).verifier, { enabled: true, timeout: 15, prewarm: true });
    assert.deepEqual(toServerSettings(reader(written), false).verifier, { enabled: false, timeout: 15, prewarm: false });
  });

  it('honours a verifier turned off by the user', () => {
    assert.equal(toServerSettings(reader({ 'verifier.enabled': false }), true).verifier.enabled, false);
  });
});

describe('settings contributed in package.json', () => {
  // Settings the extension itself consumes; everything else must reach the server.
  const clientOnly = new Set(['tflsp.enable', 'tflsp.interpreter', 'tflsp.trace.server']);

  it('every contributed setting is either sent to the server or used by the client', () => {
    const everything: Record<string, unknown> = {
      select: ['TFL1'], extendSelect: ['TFL7'], ignore: ['TFL108'], severity: { TFL101: 'error' },
      targetKeras: '3', lang: 'en', docsBaseUrl: 'https://x.invalid/',
    };
    const out = toServerSettings(reader(everything), true);
    const sent = new Set(Object.keys(out).filter((k) => k !== 'verifier'));
    for (const key of Object.keys(properties)) {
      if (clientOnly.has(key) || key.startsWith('tflsp.verifier.')) {
        continue;
      }
      assert.ok(key.slice('tflsp.'.length) in everything, `${key} is contributed but not covered by this test`);
    }
    assert.equal(sent.size, Object.keys(everything).length);
    for (const key of Object.keys(properties).filter((k) => k.startsWith('tflsp.verifier.'))) {
      assert.ok(key.slice('tflsp.verifier.'.length) in out.verifier, `${key} is not passed to the server`);
    }
  });

  it('restart keys are contributed settings', () => {
    for (const key of RESTART_KEYS) {
      assert.ok(key in properties, key);
    }
  });

  it('lint keys are spelled as tflsp/settings.py defines them', (t) => {
    const settingsPy = join(EXTENSION_ROOT, '..', 'tflsp', 'settings.py');
    if (!existsSync(settingsPy)) {
      t.skip('not inside the tflsp repository');
      return;
    }
    const known = new Set([...readFileSync(settingsPy, 'utf8').matchAll(/SettingSpec\(\s*"([a-z-]+)"/g)].map((m) => m[1]));
    assert.ok(known.size >= 5, 'could not read SETTINGS from tflsp/settings.py');
    const out = toServerSettings(
      reader({ select: [], extendSelect: [], ignore: [], severity: {}, targetKeras: '3', lang: 'en', docsBaseUrl: 'u' }),
      true,
    );
    for (const key of Object.keys(out).filter((k) => k !== 'verifier')) {
      assert.ok(known.has(key), `server does not know ${key}`);
    }
  });
});
