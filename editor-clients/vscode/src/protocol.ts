/**
 * The server's command results (docs/architecture.md, `rephrase_ls.lsp`), checked on arrival:
 * a malformed answer becomes a clear error instead of `undefined` somewhere in the UI.
 */

/** The server answered something the client cannot use. */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** What the client needs from the running server. */
export interface ServerApi {
  executeCommand(command: string, args: unknown[]): Promise<unknown>;
}

export interface StylesInfo {
  language: string | null;
  languageSource: string | null;
  supported: boolean;
  reason: string | null;
  writingStyles: string[];
  tones: string[];
  current: { writingStyle: string | null; tone: string | null };
  targets: string[];
}

export interface SetResult {
  applied: boolean;
  file: string | null;
}

/** The result of `rephrase.improve` or `rephrase.correct`: the edit was applied, or why not (already told the writer). */
export interface ImproveResult {
  applied: boolean;
  edits: number | null;
  reason: string | null;
}

export interface UsageInfo {
  backend: string;
  characterCount: number | null;
  characterLimit: number | null;
  extra: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function optString(obj: Record<string, unknown>, key: string, what: string): string | null {
  const value = obj[key];
  if (value === undefined || value === null) {
    return null;
  }
  if (typeof value !== 'string') {
    throw new ProtocolError(`${what}: "${key}" should be a string, got ${JSON.stringify(value)}`);
  }
  return value;
}

function optNumber(obj: Record<string, unknown>, key: string, what: string): number | null {
  const value = obj[key];
  if (value === undefined || value === null) {
    return null;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ProtocolError(`${what}: "${key}" should be a number, got ${JSON.stringify(value)}`);
  }
  return value;
}

function stringList(obj: Record<string, unknown>, key: string, what: string): string[] {
  const value = obj[key];
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value)) {
    throw new ProtocolError(`${what}: "${key}" should be a list, got ${JSON.stringify(value)}`);
  }
  return value.map((item) => {
    if (typeof item === 'string') {
      return item;
    }
    // Language lists may hold objects such as {lang, features} or {language, name}.
    if (isRecord(item)) {
      const code = item.lang ?? item.language ?? item.code;
      if (typeof code === 'string') {
        return code;
      }
    }
    throw new ProtocolError(`${what}: unexpected item in "${key}": ${JSON.stringify(item)}`);
  });
}

/** Parses the result of `rephrase.listStyles`. */
export function parseStylesInfo(raw: unknown): StylesInfo {
  const what = 'rephrase.listStyles';
  if (!isRecord(raw)) {
    throw new ProtocolError(`${what} returned ${JSON.stringify(raw)} instead of an object`);
  }
  const current = raw.current === undefined || raw.current === null ? {} : raw.current;
  if (!isRecord(current)) {
    throw new ProtocolError(`${what}: "current" should be an object`);
  }
  const supported = raw.supported;
  if (supported !== undefined && supported !== null && typeof supported !== 'boolean') {
    throw new ProtocolError(`${what}: "supported" should be true or false`);
  }
  return {
    language: optString(raw, 'language', what),
    languageSource: optString(raw, 'languageSource', what),
    supported: supported === true,
    reason: optString(raw, 'reason', what),
    writingStyles: stringList(raw, 'writingStyles', what),
    tones: stringList(raw, 'tones', what),
    current: {
      writingStyle: optString(current, 'writingStyle', what),
      tone: optString(current, 'tone', what),
    },
    targets: stringList(raw, 'targets', what),
  };
}

/** Parses the result of `rephrase.setStyle`, `rephrase.setTone` and `rephrase.setLanguage`. */
export function parseSetResult(raw: unknown, command: string): SetResult {
  if (!isRecord(raw) || typeof raw.applied !== 'boolean') {
    throw new ProtocolError(`${command} returned ${JSON.stringify(raw)} instead of {applied, file}`);
  }
  return { applied: raw.applied, file: optString(raw, 'file', command) };
}

/** Parses the result of `rephrase.improve` (or of `rephrase.correct`, named by `what`). */
export function parseImproveResult(raw: unknown, what = 'rephrase.improve'): ImproveResult {
  if (!isRecord(raw) || typeof raw.applied !== 'boolean') {
    throw new ProtocolError(`${what} returned ${JSON.stringify(raw)} instead of {applied, ...}`);
  }
  return { applied: raw.applied, edits: optNumber(raw, 'edits', what), reason: optString(raw, 'reason', what) };
}

/** Parses the result of `rephrase.usage`. */
export function parseUsage(raw: unknown): UsageInfo {
  const what = 'rephrase.usage';
  if (!isRecord(raw)) {
    throw new ProtocolError(`${what} returned ${JSON.stringify(raw)} instead of an object`);
  }
  const backend = optString(raw, 'backend', what) ?? 'service';
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!['backend', 'characterCount', 'characterLimit'].includes(key)) {
      extra[key] = value;
    }
  }
  return {
    backend,
    characterCount: optNumber(raw, 'characterCount', what),
    characterLimit: optNumber(raw, 'characterLimit', what),
    extra,
  };
}
