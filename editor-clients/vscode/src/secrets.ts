/** The API key: kept in the editor's SecretStorage, never in settings or logs. */
import * as vscode from 'vscode';

export const SECRET_KEY = 'rephrase.apiKey';

/** Why `value` cannot be an API key, or undefined when it can (empty means "remove"). */
export function validateApiKey(value: string): string | undefined {
  const key = value.trim();
  if (key === '') {
    return undefined;
  }
  if (/\s/.test(key)) {
    return 'An API key has no spaces or line breaks.';
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) {
    return 'An API key has no control characters.';
  }
  if (key.length > 512) {
    return 'This is too long to be an API key.';
  }
  return undefined;
}

export type KeyChange = 'set' | 'removed' | 'unchanged';

/** "Rephrase: Set API Key": asks for the key (hidden) and stores or removes it. */
export async function promptApiKey(secrets: vscode.SecretStorage): Promise<KeyChange> {
  const existing = await secrets.get(SECRET_KEY);
  const value = await vscode.window.showInputBox({
    title: 'Rephrase: API key',
    prompt: existing
      ? 'A key is stored. Enter a new key, or leave empty to remove it.'
      : 'The API key of the rephrase service. Without one, the offline service is used.',
    password: true,
    ignoreFocusOut: true,
    validateInput: validateApiKey,
  });
  if (value === undefined) {
    return 'unchanged';
  }
  const problem = validateApiKey(value);
  if (problem !== undefined) {
    void vscode.window.showErrorMessage(`Rephrase: ${problem}`);
    return 'unchanged';
  }
  const key = value.trim();
  if (key === '') {
    if (!existing) {
      return 'unchanged';
    }
    await secrets.delete(SECRET_KEY);
    return 'removed';
  }
  if (key === existing) {
    return 'unchanged';
  }
  await secrets.store(SECRET_KEY, key);
  return 'set';
}
