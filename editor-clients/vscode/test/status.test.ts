import * as assert from 'node:assert/strict';

import { COMMAND_IDS } from '../src/commands';
import { ServerApi, StylesInfo } from '../src/protocol';
import { StatusController, statusText } from '../src/status';
import * as fake from './fake/vscode';

function info(overrides: Partial<StylesInfo> = {}): StylesInfo {
  return {
    language: 'de',
    languageSource: 'detected',
    supported: true,
    reason: null,
    writingStyles: ['simple'],
    tones: ['friendly'],
    current: { writingStyle: null, tone: null },
    targets: [],
    ...overrides,
  };
}

describe('status bar text', () => {
  it('shows the language and the style or tone', () => {
    assert.equal(statusText(info()).text, '$(pencil) de');
    assert.equal(statusText(info({ current: { writingStyle: 'business', tone: null } })).text, '$(pencil) de · business');
    assert.equal(statusText(info({ current: { writingStyle: null, tone: 'friendly' } })).text, '$(pencil) de · friendly');
    assert.match(statusText(info()).tooltip, /language de \(detected\).*Click to choose a writing style/);
  });

  it('explains when styles are not available, and shows "auto" for an unknown language', () => {
    const s = statusText(info({ language: null, supported: false, reason: 'Too little text to tell.' }));
    assert.equal(s.text, '$(pencil) auto');
    assert.match(s.tooltip, /Too little text to tell\./);
  });
});

describe('StatusController', () => {
  const markdown = { document: { uri: fake.Uri.file('/a.md'), languageId: 'markdown' } } as never;
  const python = { document: { uri: fake.Uri.file('/a.py'), languageId: 'python' } } as never;

  function deferred<T>() {
    let resolve!: (value: T) => void;
    const promise = new Promise<T>((r) => (resolve = r));
    return { promise, resolve };
  }

  it('opens the style picker on click and follows the server', async () => {
    const item = new fake.FakeStatusBarItem();
    const api: ServerApi = { executeCommand: async () => ({ language: 'fr', supported: true, current: { tone: 'confident' } }) };
    const status = new StatusController(item as never, () => api, (d) => d.languageId === 'markdown');
    assert.equal(item.command, COMMAND_IDS.chooseStyle);
    await status.refresh(markdown);
    assert.equal(item.text, '$(pencil) fr · confident');
    assert.ok(item.visible);
    await status.refresh(python);
    assert.ok(!item.visible, 'hidden for documents the server does not handle');
    await status.refresh(undefined);
    assert.ok(!item.visible);
  });

  it('hides while no server runs and shows errors in the tooltip', async () => {
    const item = new fake.FakeStatusBarItem();
    let api: ServerApi | undefined;
    const logged: string[] = [];
    const status = new StatusController(item as never, () => api, () => true, (m) => logged.push(m));
    await status.refresh(markdown);
    assert.ok(!item.visible);
    api = { executeCommand: async () => Promise.reject(new Error('server crashed')) };
    await status.refresh(markdown);
    assert.equal(item.text, '$(pencil) Rephrase');
    assert.match(item.tooltip ?? '', /server crashed/);
    assert.deepEqual(logged, ['status bar: server crashed']);
  });

  it('drops an answer that arrives after a newer refresh', async () => {
    const item = new fake.FakeStatusBarItem();
    const slow = deferred<unknown>();
    const answers = [slow.promise, Promise.resolve({ language: 'it', supported: true })];
    const api: ServerApi = { executeCommand: () => answers.shift()! };
    const status = new StatusController(item as never, () => api, () => true);
    const first = status.refresh(markdown);
    await status.refresh(markdown);
    slow.resolve({ language: 'en-US', supported: true });
    await first;
    assert.equal(item.text, '$(pencil) it');
  });
});
