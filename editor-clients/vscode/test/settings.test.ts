import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { COMMAND_IDS } from '../src/commands';
import {
  answerConfigurationItem,
  CLIENT_SETTING_KEYS,
  configurationMiddleware,
  CONNECTION_SETTING_KEYS,
  connectionSettings,
  DELEGATE,
  SERVER_SETTING_KEYS,
  serverSettings,
  stripNulls,
} from '../src/settings';
import * as fake from './fake/vscode';

const root = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const properties: Record<string, Record<string, unknown>> = pkg.contributes.configuration.properties;

const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };

describe('stripNulls', () => {
  it('drops nulls at every depth and keeps falsy values', () => {
    assert.deepEqual(stripNulls({ a: null, b: 0, c: false, d: '', e: { f: null, g: [1, null, { h: null }] } }), {
      b: 0,
      c: false,
      d: '',
      e: { g: [1, {}] },
    });
    assert.equal(stripNulls(null), null);
    assert.equal(stripNulls('x'), 'x');
  });
});

describe('answering workspace/configuration', () => {
  it('gives the server settings without unset ones and without client-only settings', () => {
    fake.setSettings('rephrase', '', {
      language: 'de',
      tone: null,
      writingStyle: 'business',
      preferFallback: false,
      'server.path': '/opt/rephrase-ls',
      'trace.server': 'verbose',
    });
    const answer = answerConfigurationItem('rephrase', (s) => fake.workspace.getConfiguration(s));
    assert.deepEqual(answer, { language: 'de', writingStyle: 'business', preferFallback: false });
  });

  it('answers single keys, hides client keys, delegates other sections', () => {
    fake.setSettings('rephrase', '', { timeout: 12, 'server.path': '/secret/path', language: null });
    const read = (s: string) => fake.workspace.getConfiguration(s);
    assert.equal(answerConfigurationItem('rephrase.timeout', read), 12);
    assert.equal(answerConfigurationItem('rephrase.language', read), null);
    assert.equal(answerConfigurationItem('rephrase.server.path', read), null);
    assert.equal(answerConfigurationItem('editor', read), DELEGATE);
    assert.deepEqual(answerConfigurationItem(undefined, read), { rephrase: { timeout: 12 } });
  });

  it('uses the scope of each item (per-folder settings) and delegates the rest to next', async () => {
    const folder = 'file:///work/book';
    fake.setSettings('rephrase', '', { language: 'en-US', tone: 'friendly' });
    fake.setSettings('rephrase', fake.Uri.parse(folder).toString(), { language: 'fr' });
    const delegated: unknown[] = [];
    const middleware = configurationMiddleware();
    const result = await middleware(
      {
        items: [
          { scopeUri: folder, section: 'rephrase' },
          { section: 'rephrase' },
          { section: 'files' },
        ],
      },
      token as never,
      (params) => {
        delegated.push(params);
        return [{ eol: '\n' }];
      },
    );
    assert.deepEqual(result, [{ language: 'fr', tone: 'friendly' }, { language: 'en-US', tone: 'friendly' }, { eol: '\n' }]);
    assert.deepEqual(delegated, [{ items: [{ section: 'files' }] }]);
  });

  it('passes an error from the default handler on unchanged', async () => {
    const error = { code: -32603, message: 'boom' };
    const result = await configurationMiddleware()({ items: [{ section: 'other' }] }, token as never, () => error as never);
    assert.equal(result, error);
  });

  it('reads every declared server setting, the connection ones only for the launch', () => {
    const values: Record<string, unknown> = {};
    SERVER_SETTING_KEYS.forEach((key, i) => (values[key] = `v${i}`));
    fake.setSettings('rephrase', '', values);
    const perFolder = { ...values };
    const launch: Record<string, unknown> = {};
    for (const key of CONNECTION_SETTING_KEYS) {
      launch[key] = values[key];
      delete perFolder[key];
    }
    assert.deepEqual(serverSettings(fake.workspace.getConfiguration('rephrase')), perFolder);
    assert.deepEqual(connectionSettings(fake.workspace.getConfiguration('rephrase')), launch);
  });

  it('never answers a connection setting to workspace/configuration', () => {
    fake.setSettings('rephrase', '', { serverUrl: 'https://mine.example', apiKeyEnv: 'K', tone: 'friendly' });
    const read = (s: string) => fake.workspace.getConfiguration(s);
    assert.deepEqual(answerConfigurationItem('rephrase', read), { tone: 'friendly' });
    assert.equal(answerConfigurationItem('rephrase.serverUrl', read), null);
    assert.equal(answerConfigurationItem('rephrase.apiKeyEnv', read), null);
    assert.deepEqual(answerConfigurationItem(undefined, read), { rephrase: { tone: 'friendly' } });
  });
});

describe('package.json contributions', () => {
  const declared = Object.keys(properties).map((k) => k.replace(/^rephrase\./, ''));

  it('splits the declared settings into the server\'s and the client\'s', () => {
    for (const key of CLIENT_SETTING_KEYS) {
      assert.ok(declared.includes(key), `${key} is not declared`);
      assert.ok(!SERVER_SETTING_KEYS.includes(key), `${key} would be sent to the server`);
    }
    assert.deepEqual(new Set(declared), new Set([...SERVER_SETTING_KEYS, ...CLIENT_SETTING_KEYS]));
    for (const key of ['language', 'writingStyle', 'tone', 'timeout']) {
      assert.ok(SERVER_SETTING_KEYS.includes(key), key);
    }
  });

  it('takes the connection settings from the ones restricted in untrusted workspaces', () => {
    assert.deepEqual([...CONNECTION_SETTING_KEYS].sort(), ['apiKeyEnv', 'authScheme', 'freeServerUrl', 'serverUrl', 'tier']);
  });

  it('gives every setting a scope and a description', () => {
    const scopes = new Set(['application', 'machine', 'machine-overridable', 'window', 'resource', 'language-overridable']);
    for (const [key, prop] of Object.entries(properties)) {
      assert.ok(scopes.has(prop.scope as string), `${key} has scope ${String(prop.scope)}`);
      const text = (prop.markdownDescription ?? prop.description) as string | undefined;
      assert.ok(text && text.length > 20, `${key} needs a description`);
    }
  });

  it('leaves server settings unset by default so the server defaults apply', () => {
    for (const key of SERVER_SETTING_KEYS) {
      assert.equal(properties[`rephrase.${key}`].default, null, key);
      assert.ok((properties[`rephrase.${key}`].type as string[]).includes('null'), key);
    }
  });

  it('scopes per-folder settings as resource and addresses and programs as machine', () => {
    for (const key of ['language', 'englishVariant', 'portugueseVariant', 'writingStyle', 'tone', 'preferFallback', 'actions']) {
      assert.equal(properties[`rephrase.${key}`].scope, 'resource', key);
    }
    for (const key of [...CONNECTION_SETTING_KEYS, 'server.path', 'server.pythonPath', 'server.args']) {
      assert.equal(properties[`rephrase.${key}`].scope, 'machine', key);
    }
  });

  it('has no API key setting', () => {
    assert.ok(!declared.some((k) => /^api_?key$/i.test(k)));
  });

  it('contributes exactly the commands the extension registers', () => {
    const contributed = pkg.contributes.commands.map((c: { command: string }) => c.command).sort();
    assert.deepEqual(contributed, Object.values(COMMAND_IDS).sort());
    const titles = pkg.contributes.commands.map((c: { category: string; title: string }) => `${c.category}: ${c.title}`);
    for (const title of [
      'Rephrase: Improve Selection',
      'Rephrase: Choose Writing Style…',
      'Rephrase: Choose Tone…',
      'Rephrase: Set Language…',
      'Rephrase: Set API Key',
      'Rephrase: Show Usage',
      'Rephrase: Restart Server',
    ]) {
      assert.ok(titles.includes(title), title);
    }
  });

  it('does not reuse the ids of server commands (the client registers those itself)', () => {
    const server = ['listStyles', 'setStyle', 'setTone', 'setLanguage', 'languages', 'pairFeatures', 'usage', 'improve'];
    for (const id of Object.values(COMMAND_IDS)) {
      assert.ok(!server.map((s) => `rephrase.${s}`).includes(id), id);
    }
  });
});

describe('the document languages', () => {
  it('each activates the extension, Typst and HTML among them', () => {
    const languages = properties['rephrase.documentLanguages'].default as string[];
    const events: string[] = pkg.activationEvents;
    for (const language of languages) {
      assert.ok(events.includes(`onLanguage:${language}`), `no activation event for ${language}`);
    }
    assert.ok(languages.includes('typst') && languages.includes('html'));
  });
});
