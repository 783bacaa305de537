import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { processOptions } from '../../src/interpreter';
import { installCommand, interpretProbe, runProbe, shellQuote, terminalLine } from '../../src/probe';

const report = (fields: Record<string, unknown>) =>
  JSON.stringify({ python: '/venv/bin/python', pythonVersion: [3, 11, 7], ...fields });

describe('interpretProbe', () => {
  it('reports a missing interpreter', () => {
    const r = interpretProbe({ error: { code: 'ENOENT', message: 'spawn python3 ENOENT' }, stdout: '', stderr: '' });
    assert.equal(r.kind, 'no-interpreter');
  });

  it('reports a timeout as a failure', () => {
    const r = interpretProbe({ error: { code: null as never, message: 'killed', killed: true }, stdout: '', stderr: '' });
    assert.deepEqual(r, { kind: 'failed', detail: 'the interpreter did not answer in time' });
  });

  it('reports output that is not the probe report, with the end of stderr', () => {
    const r = interpretProbe({ error: { code: 1, message: 'exit 1' }, stdout: 'hello\n', stderr: 'a\nb\nc\nd\nFatal: boom\n' });
    assert.deepEqual(r, { kind: 'failed', detail: 'c\nd\nFatal: boom' });
  });

  it('tells an old Python apart from a missing tflsp', () => {
    const r = interpretProbe({ stdout: report({ pythonVersion: [3, 8, 10], error: 'SyntaxError: x' }), stderr: '' });
    assert.deepEqual(r, { kind: 'old-python', python: '/venv/bin/python', pythonVersion: '3.8.10' });
  });

  it('reports tflsp missing with the import error', () => {
    const r = interpretProbe({ stdout: report({ error: "ModuleNotFoundError: No module named 'tflsp'" }), stderr: '' });
    assert.deepEqual(r, { kind: 'missing', python: '/venv/bin/python', detail: "ModuleNotFoundError: No module named 'tflsp'" });
  });

  it('reports a tflsp without server or without pygls as outdated', () => {
    const noServer = interpretProbe({ stdout: report({ tflsp: '0.0.1', server: false, pygls: true }), stderr: '' });
    assert.equal(noServer.kind, 'outdated');
    const noPygls = interpretProbe({ stdout: report({ tflsp: '0.1.0', server: true, pygls: false }), stderr: '' });
    assert.equal(noPygls.kind, 'outdated');
    assert.match((noPygls as { detail: string }).detail, /pygls/);
  });

  it('finds the report after unrelated output', () => {
    const stdout = `{"not": "ours"\nbanner from sitecustomize\n${report({ tflsp: '0.1.0', server: true, pygls: true })}\n`;
    assert.deepEqual(interpretProbe({ stdout, stderr: '' }), { kind: 'ready', python: '/venv/bin/python', version: '0.1.0' });
  });
});

describe('runProbe (real python3)', () => {
  const root = mkdtempSync(join(tmpdir(), 'tflsp-probe-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  function fakePackage(name: string, files: Record<string, string>): string {
    const dir = join(root, name);
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    return dir;
  }
  const envWith = (path: string) => ({ ...process.env, PYTHONPATH: path });

  it('sees a complete tflsp as ready', async () => {
    const dir = fakePackage('full', {
      'tflsp/__init__.py': '__version__ = "9.8.7"\n',
      'tflsp/server/__init__.py': '',
      'pygls/__init__.py': '',
    });
    const r = await runProbe(['python3'], { env: envWith(dir) });
    assert.equal(r.kind, 'ready', JSON.stringify(r));
    assert.equal((r as { version: string }).version, '9.8.7');
  });

  it('sees a tflsp without a server as outdated', async () => {
    const dir = fakePackage('old', { 'tflsp/__init__.py': '__version__ = "0.0.1"\n', 'pygls/__init__.py': '' });
    const r = await runProbe(['python3'], { env: envWith(dir) });
    assert.equal(r.kind, 'outdated', JSON.stringify(r));
  });

  it('reports the import error of a broken tflsp as missing', async () => {
    const dir = fakePackage('broken', { 'tflsp/__init__.py': 'raise ImportError("half-installed")\n' });
    const r = await runProbe(['python3'], { env: envWith(dir) });
    assert.equal(r.kind, 'missing', JSON.stringify(r));
    assert.match((r as { detail: string }).detail, /half-installed/);
  });

  it('passes interpreter arguments before -c', async () => {
    const dir = fakePackage('args', { 'tflsp/__init__.py': 'import sys\n__version__ = str(sys.flags.optimize)\n' });
    const r = await runProbe(['python3', '-O'], { env: envWith(dir) });
    assert.equal(r.kind, 'outdated', JSON.stringify(r));
    assert.equal((r as { version: string }).version, '1');
  });

  it('never imports a tflsp planted in the workspace', async () => {
    // A hostile workspace: its own `tflsp` package would run as soon as Python imports tflsp.
    const workspace = fakePackage('hostile', {
      'tflsp/__init__.py': 'open(__file__ + ".ran", "w").close()\n__version__ = "hostile"\n',
    });
    const marker = join(workspace, 'tflsp', '__init__.py.ran');
    const safe = fakePackage('extension-dir', { 'package.json': '{}' });
    const env = { ...process.env, PYTHONPATH: '' };
    const guarded = await runProbe(['python3'], processOptions(safe, env));
    assert.notEqual((guarded as { version?: string }).version, 'hostile');
    assert.equal(existsSync(marker), false, 'the workspace package ran');
    // Control: started inside the workspace, the same probe does run the planted package.
    const exposed = await runProbe(['python3'], { cwd: workspace, env });
    assert.equal(existsSync(marker), true, JSON.stringify(exposed));
  });

  it('reports an interpreter that does not exist', async () => {
    const r = await runProbe([join(root, 'no-such-python')]);
    assert.equal(r.kind, 'no-interpreter');
  });
});

describe('installCommand', () => {
  it('uses the same interpreter and quotes paths with spaces', () => {
    assert.equal(installCommand(['/venv/bin/python'], 'linux'), '/venv/bin/python -m pip install tflsp');
    assert.equal(
      installCommand(['/home/ana/my envs/py'], 'linux', true),
      "'/home/ana/my envs/py' -m pip install --upgrade tflsp",
    );
    assert.equal(
      installCommand(['C:\\Program Files\\Python312\\python.exe'], 'win32'),
      "'C:\\Program Files\\Python312\\python.exe' -m pip install tflsp",
    );
  });

  it('quotes single quotes for the shell in use', () => {
    assert.equal(shellQuote("it's", 'linux'), `'it'\\''s'`);
    assert.equal(shellQuote("it's", 'win32'), "'it''s'");
  });

  it('prefixes a quoted command with & on PowerShell only', () => {
    assert.equal(terminalLine("'C:\\a b\\python.exe' -m pip install tflsp", 'win32'), "& 'C:\\a b\\python.exe' -m pip install tflsp");
    assert.equal(terminalLine("'/a b/python' -m pip install tflsp", 'linux'), "'/a b/python' -m pip install tflsp");
  });
});
