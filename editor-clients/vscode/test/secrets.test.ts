import * as assert from 'node:assert/strict';

import { promptApiKey, SECRET_KEY, validateApiKey } from '../src/secrets';
import * as fake from './fake/vscode';

describe('the API key', () => {
  it('validates what the writer types', () => {
    assert.equal(validateApiKey(''), undefined);
    assert.equal(validateApiKey('  abc-123:fx  '), undefined);
    assert.match(validateApiKey('abc 123') ?? '', /no spaces/);
    assert.match(validateApiKey('x'.repeat(600)) ?? '', /too long/);
  });

  it('is asked for in a hidden input box and kept in secret storage, trimmed', async () => {
    const secrets = new fake.FakeSecretStorage();
    fake.state.inputAnswers.push('  key-1  ');
    assert.equal(await promptApiKey(secrets as never), 'set');
    assert.equal(secrets.values.get(SECRET_KEY), 'key-1');
    assert.equal(fake.state.inputOptions[0].password, true);
    assert.equal(fake.state.inputOptions[0].ignoreFocusOut, true);
    assert.ok(!JSON.stringify(fake.state.shown).includes('key-1'), 'the key is never shown');
  });

  it('is removed by an empty answer and left alone by Escape or the same key', async () => {
    const secrets = new fake.FakeSecretStorage();
    secrets.values.set(SECRET_KEY, 'old');
    fake.state.inputAnswers.push(undefined, 'old', '');
    assert.equal(await promptApiKey(secrets as never), 'unchanged');
    assert.equal(await promptApiKey(secrets as never), 'unchanged');
    assert.equal(secrets.values.get(SECRET_KEY), 'old');
    assert.equal(await promptApiKey(secrets as never), 'removed');
    assert.ok(!secrets.values.has(SECRET_KEY));
    fake.state.inputAnswers.push('');
    assert.equal(await promptApiKey(secrets as never), 'unchanged', 'nothing to remove');
  });

  it('refuses an invalid key without storing it', async () => {
    const secrets = new fake.FakeSecretStorage();
    fake.state.inputAnswers.push('two words');
    assert.equal(await promptApiKey(secrets as never), 'unchanged');
    assert.equal(secrets.values.size, 0);
    assert.equal(fake.state.shown[0].level, 'error');
    assert.ok(!fake.state.shown[0].message.includes('two words'));
  });
});
