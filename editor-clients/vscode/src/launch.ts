/**
 * Finding the language server to launch, and the environment it runs in.
 *
 * Pure Node (no `vscode`), so it is tested against real files and real processes.
 */
import { execFile } from 'node:child_process';
import { constants as fsConstants, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const DEFAULT_SERVER_PATH = 'rephrase-ls';
export const DEFAULT_KEY_VARIABLE = 'REPHRASE_API_KEY';
export const INSTALL_HINT =
  'Install it with "pipx install rephrase-ls" (or "pip install rephrase-ls" in the Python ' +
  'environment you use), or set "rephrase.server.path" to the full path of the rephrase-ls ' +
  'program, then run "Rephrase: Restart Server".';

export interface LaunchSettings {
  /** The program to run (a name looked up on PATH, or a path). Empty means the default. */
  path?: string | null;
  /** Arguments to pass to it. */
  args?: readonly string[] | null;
  /** The Python interpreter for the `python -P -m rephrase_ls` fallback; empty means python3/python. */
  pythonPath?: string | null;
}

export interface ServerCommand {
  command: string;
  args: string[];
  /** How the command was found, for the log. */
  via: 'path' | 'python';
}

/** The server cannot be started; the message says what was tried and how to install it. */
export class ServerNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServerNotFoundError';
  }
}

/** Bad client settings (e.g. a non-string argument). */
export class LaunchSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LaunchSettingsError';
  }
}

type Env = Record<string, string | undefined>;

/** Expands a leading `~` to the home directory. */
export function expandHome(p: string, home: string = os.homedir()): string {
  if (p === '~') {
    return home;
  }
  if (p.startsWith('~/') || p.startsWith('~\\')) {
    return path.join(home, p.slice(2));
  }
  return p;
}

async function isExecutableFile(file: string, platform: NodeJS.Platform): Promise<boolean> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) {
      return false;
    }
    if (platform !== 'win32') {
      await fs.access(file, fsConstants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * The full path of `name` as the shell would find it: a name with a directory part is checked
 * as it is, a bare name is searched in PATH (with PATHEXT on Windows). `undefined` when absent.
 */
export async function findExecutable(
  name: string,
  env: Env = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<string | undefined> {
  if (name.trim() === '') {
    return undefined;
  }
  const expanded = expandHome(name);
  const extensions =
    platform === 'win32'
      ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((e) => e !== '')]
      : [''];
  const hasDir = expanded.includes('/') || (platform === 'win32' && expanded.includes('\\'));
  if (hasDir) {
    for (const ext of extensions) {
      const candidate = path.resolve(expanded + ext);
      if (await isExecutableFile(candidate, platform)) {
        return candidate;
      }
    }
    return undefined;
  }
  const pathVar = env.PATH ?? env.Path ?? '';
  const separator = platform === 'win32' ? ';' : ':';
  for (const dir of pathVar.split(separator)) {
    if (dir === '') {
      continue;
    }
    for (const ext of extensions) {
      const candidate = path.join(dir, expanded + ext);
      if (await isExecutableFile(candidate, platform)) {
        return candidate;
      }
    }
  }
  return undefined;
}

/**
 * `-P` before `-c`/`-m`: Python would otherwise put the current folder first on `sys.path`, and
 * the server is started from the workspace folder: a `rephrase_ls/` planted in a cloned
 * repository would run instead of the installed server, trusted workspace or not. An interpreter
 * older than 3.11 does not know `-P`; rephrase_ls needs 3.11 anyway.
 */
const SAFE_PATH = '-P';

/** Runs `python -P -c "import rephrase_ls"`; true when it exits 0 within the time-out. */
export function pythonHasServer(
  python: string,
  env: Env = process.env,
  timeoutMs = 15000,
): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(
      python,
      [SAFE_PATH, '-c', 'import rephrase_ls'],
      { env: env as NodeJS.ProcessEnv, timeout: timeoutMs, windowsHide: true },
      (error) => resolve(error === null),
    );
  });
}

function checkArgs(args: unknown): string[] {
  if (args === undefined || args === null) {
    return [];
  }
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) {
    throw new LaunchSettingsError('"rephrase.server.args" must be a list of strings.');
  }
  return [...(args as string[])];
}

export interface ResolveDeps {
  find?: (name: string, env: Env) => Promise<string | undefined>;
  probePython?: (python: string, env: Env) => Promise<boolean>;
}

/**
 * The command that starts the server: the configured program (default `rephrase-ls`) when it
 * exists, else `<python> -P -m rephrase_ls` with the first interpreter that can import it.
 */
export async function resolveServerCommand(
  settings: LaunchSettings,
  env: Env = process.env,
  deps: ResolveDeps = {},
): Promise<ServerCommand> {
  const find = deps.find ?? ((name: string, e: Env) => findExecutable(name, e));
  const probe = deps.probePython ?? ((py: string, e: Env) => pythonHasServer(py, e));
  const args = checkArgs(settings.args);
  const configured = (settings.path ?? '').trim();
  const program = configured === '' ? DEFAULT_SERVER_PATH : configured;

  const found = await find(program, env);
  if (found !== undefined) {
    return { command: found, args, via: 'path' };
  }

  const pythonSetting = (settings.pythonPath ?? '').trim();
  const pythons = pythonSetting !== '' ? [pythonSetting] : ['python3', 'python'];
  const tried: string[] = [];
  for (const python of pythons) {
    const interpreter = await find(python, env);
    if (interpreter === undefined) {
      tried.push(`${python} (not found)`);
      continue;
    }
    if (await probe(interpreter, env)) {
      return { command: interpreter, args: [SAFE_PATH, '-m', 'rephrase_ls', ...args], via: 'python' };
    }
    tried.push(`${interpreter} (cannot import rephrase_ls)`);
  }
  const what = configured === '' ? `"${program}" was not found on PATH` : `"${program}" was not found`;
  throw new ServerNotFoundError(
    `Rephrase cannot start its language server: ${what}, and no Python interpreter could run ` +
      `"python -P -m rephrase_ls" (tried ${tried.join(', ')}). ${INSTALL_HINT}`,
  );
}

/** True for a usable environment variable name. */
export function isValidVariableName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

/**
 * The server process environment: the editor's environment plus the API key (if one is stored)
 * under `keyVariable` (the server's `apiKeyEnv` setting; default `REPHRASE_API_KEY`).
 */
export function serverEnvironment(
  base: Env,
  apiKey: string | undefined,
  keyVariable: string | null | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined) {
      env[name] = value;
    }
  }
  if (apiKey !== undefined && apiKey !== '') {
    const variable =
      keyVariable && isValidVariableName(keyVariable) ? keyVariable : DEFAULT_KEY_VARIABLE;
    env[variable] = apiKey;
  }
  return env;
}
