import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import {
  expandHome,
  findExecutable,
  LaunchSettingsError,
  resolveServerCommand,
  ServerNotFoundError,
  serverEnvironment,
} from '../src/launch';

describe('launching the server', () => {
  let dir: string;
  let bin: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'rephrase-launch-'));
    bin = path.join(dir, 'bin');
    mkdirSync(bin);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function script(name: string, mode = 0o755): string {
    const file = path.join(bin, name);
    writeFileSync(file, '#!/bin/sh\nexit 0\n');
    chmodSync(file, mode);
    return file;
  }

  /**
   * A PATH holding only `python3`: the real interpreter behind the one on PATH (past shims and
   * virtual environments), so whether it can import rephrase_ls depends on PYTHONPATH alone.
   */
  async function pythonOnlyPath(): Promise<string> {
    const found = await findExecutable('python3');
    assert.ok(found, 'these tests need python3 on PATH');
    const real = execFileSync(found, [
      '-c',
      'import os, sys; print(os.path.realpath(getattr(sys, "_base_executable", sys.executable)))',
    ])
      .toString()
      .trim();
    const pyDir = path.join(dir, 'py');
    mkdirSync(pyDir);
    symlinkSync(real, path.join(pyDir, 'python3'));
    return pyDir;
  }

  it('finds a program on PATH, skipping files that are not executable', async () => {
    const other = path.join(dir, 'other');
    mkdirSync(other);
    writeFileSync(path.join(other, 'rephrase-ls'), 'not executable');
    const exe = script('rephrase-ls');
    assert.equal(await findExecutable('rephrase-ls', { PATH: `${other}:${bin}` }, 'linux'), exe);
    assert.equal(await findExecutable('rephrase-ls', { PATH: other }, 'linux'), undefined);
    assert.equal(await findExecutable('', { PATH: bin }, 'linux'), undefined);
  });

  it('checks a path with a directory as it is', async () => {
    const exe = script('server');
    assert.equal(await findExecutable(exe, { PATH: '' }, 'linux'), exe);
    assert.equal(await findExecutable(path.join(bin, 'missing'), { PATH: bin }, 'linux'), undefined);
    assert.equal(await findExecutable(bin, { PATH: '' }, 'linux'), undefined, 'a directory is no program');
  });

  it('expands ~', () => {
    assert.equal(expandHome('~/x/y', '/home/w'), path.join('/home/w', 'x/y'));
    assert.equal(expandHome('~', '/home/w'), '/home/w');
    assert.equal(expandHome('a~b', '/home/w'), 'a~b');
  });

  it('uses the configured program with its arguments', async () => {
    const exe = script('rephrase-ls');
    const cmd = await resolveServerCommand({ args: ['serve', '--log-level', 'DEBUG'] }, { PATH: bin });
    assert.deepEqual(cmd, { command: exe, args: ['serve', '--log-level', 'DEBUG'], via: 'path' });
    const custom = script('my-server');
    assert.equal((await resolveServerCommand({ path: custom }, { PATH: '' })).command, custom);
  });

  it('falls back to python -P -m rephrase_ls with a real interpreter that can import it', async () => {
    const site = path.join(dir, 'site');
    mkdirSync(path.join(site, 'rephrase_ls'), { recursive: true });
    writeFileSync(path.join(site, 'rephrase_ls', '__init__.py'), '');
    const env = { PATH: await pythonOnlyPath(), PYTHONPATH: site };
    const cmd = await resolveServerCommand({ path: path.join(bin, 'absent') }, env);
    assert.equal(cmd.via, 'python');
    assert.deepEqual(cmd.args, ['-P', '-m', 'rephrase_ls']);
    assert.equal(cmd.command, path.join(dir, 'py', 'python3'));
  });

  it('never runs a rephrase_ls planted in the current folder (a cloned repository)', async () => {
    // Python puts the current folder first on sys.path for -c and -m; the server is started
    // from the workspace folder, so a planted rephrase_ls/ would run instead of the real one.
    const site = path.join(dir, 'site');
    mkdirSync(path.join(site, 'rephrase_ls'), { recursive: true });
    writeFileSync(path.join(site, 'rephrase_ls', '__init__.py'), '');
    writeFileSync(path.join(site, 'rephrase_ls', '__main__.py'), 'print("installed server")\n');
    const clone = path.join(dir, 'clone');
    const mark = path.join(dir, 'PLANTED-CODE-RAN');
    mkdirSync(path.join(clone, 'rephrase_ls'), { recursive: true });
    const planted = `open(${JSON.stringify(mark)}, "w").close()\n`;
    writeFileSync(path.join(clone, 'rephrase_ls', '__init__.py'), planted);
    writeFileSync(path.join(clone, 'rephrase_ls', '__main__.py'), planted);
    const env = { PATH: await pythonOnlyPath(), PYTHONPATH: site };
    const before = process.cwd();
    process.chdir(clone); // the probe runs in the extension host's folder
    let cmd;
    try {
      cmd = await resolveServerCommand({ path: path.join(bin, 'absent') }, env);
    } finally {
      process.chdir(before);
    }
    assert.equal(existsSync(mark), false, 'the probe imported the planted package');
    const out = execFileSync(cmd.command, cmd.args, { cwd: clone, env }).toString();
    assert.equal(existsSync(mark), false, 'the server command ran the planted package');
    assert.equal(out.trim(), 'installed server');
  });

  it('says how to install the server when nothing can start it', async () => {
    const env = { PATH: await pythonOnlyPath(), PYTHONPATH: path.join(dir, 'empty') };
    await assert.rejects(
      resolveServerCommand({ path: 'rephrase-ls-surely-absent' }, env),
      (error: unknown) => {
        assert.ok(error instanceof ServerNotFoundError);
        assert.match(error.message, /rephrase-ls-surely-absent/);
        assert.match(error.message, /python3 \(cannot import rephrase_ls\), python \(not found\)/);
        assert.match(error.message, /pipx install rephrase-ls/);
        return true;
      },
    );
  });

  it('tries only the configured interpreter when one is set', async () => {
    const probed: string[] = [];
    await assert.rejects(
      resolveServerCommand({ pythonPath: '/nowhere/python' }, { PATH: bin }, {
        find: async (name) => (name === '/nowhere/python' ? name : undefined),
        probePython: async (py) => {
          probed.push(py);
          return false;
        },
      }),
      ServerNotFoundError,
    );
    assert.deepEqual(probed, ['/nowhere/python']);
  });

  it('rejects arguments that are not strings', async () => {
    script('rephrase-ls');
    await assert.rejects(
      resolveServerCommand({ args: ['serve', 3] as unknown as string[] }, { PATH: bin }),
      LaunchSettingsError,
    );
  });
});

describe('the server environment', () => {
  it('passes the stored key in REPHRASE_API_KEY by default', () => {
    const env = serverEnvironment({ PATH: '/bin', HOME: '/h', UNSET: undefined }, 'k-123', null);
    assert.deepEqual(env, { PATH: '/bin', HOME: '/h', REPHRASE_API_KEY: 'k-123' });
  });

  it('uses the variable named by apiKeyEnv, and the default for a bad name', () => {
    assert.equal(serverEnvironment({}, 'k', 'MY_KEY').MY_KEY, 'k');
    const bad = serverEnvironment({}, 'k', 'not a name');
    assert.equal(bad.REPHRASE_API_KEY, 'k');
    assert.ok(!('not a name' in bad));
  });

  it('leaves the environment alone without a stored key', () => {
    assert.deepEqual(serverEnvironment({ REPHRASE_API_KEY: 'from-shell' }, undefined, null), {
      REPHRASE_API_KEY: 'from-shell',
    });
    assert.deepEqual(serverEnvironment({}, '', null), {});
  });
});
