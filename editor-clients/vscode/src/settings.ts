/**
 * The extension's settings: which keys belong to the server, which to the client, and how the
 * client answers the server's `workspace/configuration` requests (nulls stripped so that the
 * server's own defaults apply).
 */
import * as vscode from 'vscode';
import type { ConfigurationRequest, LSPAny } from 'vscode-languageclient';

import manifest from '../package.json';

/** The configuration section shared with the server (`[rephrase]` in `.rephrase.toml`). */
export const SECTION = 'rephrase';

/** Settings only the extension reads; never sent to the server. */
export const CLIENT_SETTING_KEYS = [
  'server.path',
  'server.args',
  'server.pythonPath',
  'trace.server',
  'documentLanguages',
  'saveProjectFile',
] as const;

const DECLARED = Object.keys(manifest.contributes.configuration.properties).map((name) =>
  name.slice(SECTION.length + 1),
);

/**
 * Settings the server reads: every `rephrase.*` setting declared in package.json except the
 * client's own. (tests/unit/config/test_config_keys_in_clients.py ties package.json to the server's
 * `rephrase_ls.config.settings.KEYS`.)
 */
export const SERVER_SETTING_KEYS: readonly string[] = DECLARED.filter(
  (key) => !(CLIENT_SETTING_KEYS as readonly string[]).includes(key),
);

/**
 * Server settings that decide where text and the API key go: the server settings package.json
 * restricts in untrusted workspaces. They are user-level only: declared with
 * `"scope": "machine"` (VS Code ignores them in workspace settings), sent once as the server's
 * initialization options, and never in an answer to `workspace/configuration` (the server takes
 * them from no folder's settings).
 */
export const CONNECTION_SETTING_KEYS: readonly string[] = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations
  .map((name) => name.slice(SECTION.length + 1))
  .filter((key) => SERVER_SETTING_KEYS.includes(key));

function isConnectionKey(key: string): boolean {
  return CONNECTION_SETTING_KEYS.includes(key);
}

/** The part of `vscode.WorkspaceConfiguration` this module needs. */
export interface ConfigurationReader {
  get<T>(key: string): T | undefined;
}

/** Returns `value` with every `null`/`undefined` removed from objects and arrays, recursively. */
export function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.filter((item) => item !== null && item !== undefined).map(stripNulls);
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (item !== null && item !== undefined) {
        out[key] = stripNulls(item);
      }
    }
    return out;
  }
  return value;
}

/** The server's per-folder settings as set in the editor, without the ones left unset (null). */
export function serverSettings(config: ConfigurationReader): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of SERVER_SETTING_KEYS) {
    if (isConnectionKey(key)) {
      continue;
    }
    const value = config.get<unknown>(key);
    if (value !== null && value !== undefined) {
      out[key] = stripNulls(value);
    }
  }
  return out;
}

/** The connection settings from user settings, for the server's initialization options. */
export function connectionSettings(config: ConfigurationReader): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of CONNECTION_SETTING_KEYS) {
    const value = config.get<unknown>(key);
    if (value !== null && value !== undefined) {
      out[key] = value;
    }
  }
  return out;
}

/** Marker: the item is not ours to answer; let the language client's default handle it. */
export const DELEGATE: unique symbol = Symbol('delegate');

/**
 * The answer to one `workspace/configuration` item.
 *
 * `rephrase` gives the server settings object; `rephrase.<key>` one server setting (or null);
 * no section gives `{rephrase: {...}}` (never the user's whole configuration); any other section
 * is delegated. Client-only settings are never disclosed; connection settings go in the
 * initialization options instead.
 */
export function answerConfigurationItem(
  section: string | null | undefined,
  read: (section: string) => ConfigurationReader,
): unknown {
  if (section === null || section === undefined || section === '') {
    return { [SECTION]: serverSettings(read(SECTION)) };
  }
  if (section === SECTION) {
    return serverSettings(read(SECTION));
  }
  if (section.startsWith(SECTION + '.')) {
    const key = section.slice(SECTION.length + 1);
    if (!SERVER_SETTING_KEYS.includes(key) || isConnectionKey(key)) {
      return null;
    }
    const value = read(SECTION).get<unknown>(key);
    return value === undefined || value === null ? null : stripNulls(value);
  }
  return DELEGATE;
}

/**
 * A `middleware.workspace.configuration` for vscode-languageclient: answers the `rephrase`
 * items from the editor's settings for the item's scope, delegating anything else.
 */
export function configurationMiddleware(): ConfigurationRequest.MiddlewareSignature {
  return async (params, token, next) => {
    const results: LSPAny[] = [];
    for (const item of params.items) {
      const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
      const answer = answerConfigurationItem(item.section, (section) =>
        vscode.workspace.getConfiguration(section, scope),
      );
      if (answer !== DELEGATE) {
        results.push(answer as LSPAny);
        continue;
      }
      const delegated = await next({ items: [item] }, token);
      if (!Array.isArray(delegated)) {
        return delegated; // a ResponseError: pass it on unchanged
      }
      results.push(delegated[0] ?? null);
    }
    return results;
  };
}
