import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';

import { expandVariables, normalizeCommand, processOptions, resolveInterpreter, serverLaunch } from '../../src/interpreter';

const vars = { workspaceFolder: '/home/ana/proj', userHome: '/home/ana', env: { CONDA_PREFIX: '/opt/conda' } };

describe('resolveInterpreter', () => {
  it('prefers an explicit tflsp.interpreter over the Python extension', () => {
    const r = resolveInterpreter({
      setting: ['${workspaceFolder}/.venv/bin/python'],
      pythonExtension: ['/usr/bin/python3.12'],
      variables: vars,
    });
    assert.deepEqual(r, { command: ['/home/ana/proj/.venv/bin/python'], source: 'setting' });
  });

  it('uses the Python extension when the setting is empty', () => {
    for (const setting of [[], '', [''], undefined, null, ['  ']]) {
      const r = resolveInterpreter({ setting, pythonExtension: ['/opt/py/bin/python'], variables: vars });
      assert.deepEqual(r, { command: ['/opt/py/bin/python'], source: 'python-extension' }, JSON.stringify(setting));
    }
  });

  it('falls back to python3 when neither gives an interpreter', () => {
    assert.deepEqual(resolveInterpreter({ setting: [], pythonExtension: undefined, variables: vars }), {
      command: ['python3'],
      source: 'default',
    });
    assert.deepEqual(resolveInterpreter({ setting: [], pythonExtension: [''], variables: vars }).source, 'default');
    assert.deepEqual(
      resolveInterpreter({ setting: [], pythonExtension: [], variables: vars, fallback: 'py' }).command,
      ['py'],
    );
  });

  it('keeps interpreter arguments in order and accepts a bare string', () => {
    assert.deepEqual(
      resolveInterpreter({ setting: ['conda', 'run', '-n', 'tf', 'python'], pythonExtension: undefined, variables: vars })
        .command,
      ['conda', 'run', '-n', 'tf', 'python'],
    );
    assert.deepEqual(
      resolveInterpreter({ setting: ' ~/venvs/tf/bin/python ', pythonExtension: ['/x'], variables: vars }).command,
      ['/home/ana/venvs/tf/bin/python'],
    );
  });
});

describe('expandVariables', () => {
  it('expands the usual variables and leaves unknown ones alone', () => {
    assert.equal(expandVariables('${workspaceFolderBasename}', vars), 'proj');
    assert.equal(expandVariables('${userHome}/x', vars), '/home/ana/x');
    assert.equal(expandVariables('${env:CONDA_PREFIX}/bin/python', vars), '/opt/conda/bin/python');
    assert.equal(expandVariables('${env:NOPE}/python', vars), '/python');
    assert.equal(expandVariables('${config:python.path}', vars), '${config:python.path}');
    assert.equal(expandVariables('${workspaceFolder}/py', { userHome: '/h' }), '${workspaceFolder}/py');
  });

  it('expands ~ only at the start of a path', () => {
    assert.equal(expandVariables('~/py', vars), '/home/ana/py');
    assert.equal(expandVariables('~', vars), '/home/ana');
    assert.equal(expandVariables('/a/~/py', vars), '/a/~/py');
    assert.equal(expandVariables('~bob/py', vars), '~bob/py');
  });
});

describe('normalizeCommand', () => {
  it('drops non-strings and blanks', () => {
    assert.deepEqual(normalizeCommand(['python', 3, '', ' -X ']), ['python', '-X']);
    assert.deepEqual(normalizeCommand({ path: 'python' }), []);
  });
});

describe('serverLaunch', () => {
  it('runs the tflsp module after the interpreter and its own arguments', () => {
    assert.deepEqual(serverLaunch(['/venv/bin/python']), { command: '/venv/bin/python', args: ['-m', 'tflsp', 'serve'] });
    assert.deepEqual(serverLaunch(['conda', 'run', '-n', 'tf', 'python']), {
      command: 'conda',
      args: ['run', '-n', 'tf', 'python', '-m', 'tflsp', 'serve'],
    });
  });

  it('refuses an empty command', () => {
    assert.throws(() => serverLaunch([]), /empty interpreter/);
  });
});

describe('processOptions', () => {
  it('runs in the given safe directory with a safe sys.path and keeps the environment', () => {
    const got = processOptions('/ext/tflsp', { PATH: '/usr/bin', CONDA_PREFIX: '/opt/conda' });
    assert.equal(got.cwd, '/ext/tflsp');
    assert.deepEqual(got.env, {
      PATH: '/usr/bin',
      CONDA_PREFIX: '/opt/conda',
      PYTHONSAFEPATH: '1',
      PYTHONUNBUFFERED: '1',
    });
  });
});
