import * as assert from 'node:assert/strict';

import {
  chooseLanguage,
  chooseStyle,
  correctDocument,
  correctSelection,
  errorMessage,
  executeCommandMiddleware,
  formatUsage,
  improveSelection,
  saveProjectFile,
  showUsage,
} from '../src/commands';
import { ProtocolError, ServerApi } from '../src/protocol';
import * as fake from './fake/vscode';

type Handler = (args: unknown[]) => unknown;

/** A scripted server: answers commands from handlers and records every call. */
class FakeServer implements ServerApi {
  calls: { command: string; args: unknown[] }[] = [];
  constructor(private readonly handlers: Record<string, Handler>) {}
  async executeCommand(command: string, args: unknown[]): Promise<unknown> {
    this.calls.push({ command, args });
    const handler = this.handlers[command];
    if (handler === undefined) {
      throw new Error(`unknown command ${command}`);
    }
    return handler(args);
  }
}

const uri = fake.Uri.file('/notes/draft.md') as never;
const uriString = 'file:///notes/draft.md';

function styles(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    language: 'en-US',
    languageSource: 'detected',
    supported: true,
    reason: null,
    writingStyles: ['simple', 'business', 'academic', 'casual'],
    tones: ['enthusiastic', 'friendly', 'confident', 'diplomatic'],
    current: { writingStyle: 'business', tone: null },
    targets: ['de', 'en-GB', 'en-US', 'fr'],
    ...overrides,
  };
}

const byLabel = (label: string) => (items: { label: string }[]) => items.find((i) => i.label === label);

describe('choosing a writing style or tone', () => {
  it('fills the picker from rephrase.listStyles and calls rephrase.setStyle', async () => {
    const server = new FakeServer({
      'rephrase.listStyles': () => styles(),
      'rephrase.setStyle': () => ({ applied: true, file: 'file:///notes/.rephrase.toml' }),
    });
    fake.state.pickAnswers.push(byLabel('academic'));
    assert.equal(await chooseStyle(server, uri, 'writingStyle'), 'academic');
    const pick = fake.state.quickPicks[0];
    assert.deepEqual(pick.items.map((i: { label: string }) => i.label), ['simple', 'business', 'academic', 'casual', 'default']);
    assert.equal(pick.items[1].description, 'current');
    assert.match(pick.options.title, /en-US/);
    assert.deepEqual(server.calls, [
      { command: 'rephrase.listStyles', args: [uriString] },
      { command: 'rephrase.setStyle', args: [uriString, 'academic'] },
    ]);
    assert.deepEqual(fake.state.shown, [
      { level: 'info', message: 'Rephrase: writing style set to "academic" (saved in /notes/.rephrase.toml).' },
    ]);
  });

  it('offers the tones for tone, and "default" clears', async () => {
    const server = new FakeServer({
      'rephrase.listStyles': () => styles({ current: { writingStyle: null, tone: 'friendly' } }),
      'rephrase.setTone': () => ({ applied: true, file: null }),
    });
    fake.state.pickAnswers.push(byLabel('default'));
    assert.equal(await chooseStyle(server, uri, 'tone'), 'default');
    assert.deepEqual(
      fake.state.quickPicks[0].items.map((i: { label: string }) => i.label),
      ['enthusiastic', 'friendly', 'confident', 'diplomatic', 'default'],
    );
    assert.deepEqual(server.calls[1], { command: 'rephrase.setTone', args: [uriString, 'default'] });
    assert.equal(fake.state.shown[0].message, 'Rephrase: tone cleared.');
  });

  it('sets nothing when the picker is dismissed', async () => {
    const server = new FakeServer({ 'rephrase.listStyles': () => styles() });
    fake.state.pickAnswers.push(undefined);
    assert.equal(await chooseStyle(server, uri, 'writingStyle'), undefined);
    assert.equal(server.calls.length, 1);
    assert.deepEqual(fake.state.shown, []);
  });

  it('explains, without a picker, when the language has no styles', async () => {
    const server = new FakeServer({
      'rephrase.listStyles': () =>
        styles({ language: 'ja', supported: false, reason: 'Japanese has no writing styles.', writingStyles: [], tones: [] }),
    });
    assert.equal(await chooseStyle(server, uri, 'writingStyle'), undefined);
    assert.equal(fake.state.quickPicks.length, 0);
    assert.deepEqual(fake.state.shown, [{ level: 'warning', message: 'Japanese has no writing styles.' }]);
  });

  it('reports a server that did not apply the choice', async () => {
    const server = new FakeServer({
      'rephrase.listStyles': () => styles(),
      'rephrase.setStyle': () => ({ applied: false, file: null }),
    });
    fake.state.pickAnswers.push(byLabel('simple'));
    assert.equal(await chooseStyle(server, uri, 'writingStyle'), undefined);
    assert.equal(fake.state.shown[0].level, 'warning');
  });

  it('rejects a malformed answer with a clear error', async () => {
    const server = new FakeServer({ 'rephrase.listStyles': () => ({ writingStyles: 'simple' }) });
    await assert.rejects(chooseStyle(server, uri, 'writingStyle'), (e: unknown) => {
      assert.ok(e instanceof ProtocolError);
      assert.match(e.message, /writingStyles/);
      return true;
    });
    const nothing = new FakeServer({ 'rephrase.listStyles': () => null });
    await assert.rejects(chooseStyle(nothing, uri, 'tone'), ProtocolError);
    const badSet = new FakeServer({ 'rephrase.listStyles': () => styles(), 'rephrase.setStyle': () => 'ok' });
    fake.state.pickAnswers.push(byLabel('simple'));
    await assert.rejects(chooseStyle(badSet, uri, 'writingStyle'), /applied, file/);
  });
});

describe('saving the project file', () => {
  function projectDocument(dirty: boolean) {
    const doc = {
      uri: fake.Uri.parse('file:///notes/.rephrase.toml'),
      isDirty: dirty,
      saved: 0,
      async save() {
        doc.saved++;
        doc.isDirty = false;
        return true;
      },
    };
    fake.state.textDocuments.push(doc);
    return doc;
  }

  it('saves .rephrase.toml when the server left it modified', async () => {
    const doc = projectDocument(true);
    const server = new FakeServer({
      'rephrase.listStyles': () => styles(),
      'rephrase.setStyle': () => ({ applied: true, file: 'file:///notes/.rephrase.toml' }),
    });
    fake.state.pickAnswers.push(byLabel('simple'));
    await chooseStyle(server, uri, 'writingStyle');
    assert.equal(doc.saved, 1);
  });

  it('saves it after a quick fix added a word or turned a rule off', async () => {
    for (const command of ['rephrase.addWord', 'rephrase.disableRule']) {
      fake.state.textDocuments.length = 0;
      let doc: ReturnType<typeof projectDocument> | undefined;
      const result = await executeCommandMiddleware(command, ['file:///notes/a.md', 'teh'], async () => {
        doc = projectDocument(true); // the server's edit leaves it modified
        return { applied: true, file: 'file:///notes/.rephrase.toml', changed: true };
      });
      assert.deepEqual(result, { applied: true, file: 'file:///notes/.rephrase.toml', changed: true });
      assert.equal(doc?.saved, 1, command);
    }
  });

  it('refuses a quick fix while .rephrase.toml has unsaved changes (the server edits the file on disk)', async () => {
    const doc = projectDocument(true);
    let asked = 0;
    const result = await executeCommandMiddleware('rephrase.addWord', ['file:///notes/a.md', 'teh'], async () => {
      asked++;
      return { applied: true, file: 'file:///notes/.rephrase.toml', changed: true };
    });
    assert.equal(asked, 0, 'the server is not asked');
    assert.equal((result as { applied: boolean }).applied, false);
    assert.equal(doc.saved, 0);
    const warning = fake.state.shown.find((m) => m.level === 'warning');
    assert.ok(warning && /unsaved changes: save or undo them/.test(warning.message), JSON.stringify(fake.state.shown));
  });

  it('saves nothing for other commands, or when nothing changed', async () => {
    const doc = projectDocument(true);
    const answer = { applied: true, file: 'file:///notes/.rephrase.toml', changed: true };
    assert.equal(await executeCommandMiddleware('rephrase.fixAll', [], async () => answer), answer);
    fake.state.textDocuments.length = 0;
    fake.state.textDocuments.push(doc);
    doc.isDirty = false;
    await executeCommandMiddleware('rephrase.addWord', [], async () => {
      doc.isDirty = true;
      return { applied: false, file: 'file:///notes/.rephrase.toml', reason: 'refused' };
    });
    assert.equal(doc.saved, 0);
  });

  it('leaves it alone when the setting is off, or when it is not modified', async () => {
    const doc = projectDocument(true);
    fake.setSettings('rephrase', '', { saveProjectFile: false });
    assert.equal(await saveProjectFile('file:///notes/.rephrase.toml'), false);
    fake.setSettings('rephrase', '', {});
    doc.isDirty = false;
    assert.equal(await saveProjectFile('file:///notes/.rephrase.toml'), false);
    assert.equal(await saveProjectFile(null), false);
    assert.equal(doc.saved, 0);
  });
});

describe('choosing the language', () => {
  it('offers detection plus the targets, accepting objects as targets', async () => {
    const server = new FakeServer({
      'rephrase.listStyles': () => styles({ targets: [{ lang: 'de', features: [] }, { lang: 'fr' }] }),
      'rephrase.setLanguage': () => ({ applied: true, file: '/notes/.rephrase.toml' }),
    });
    fake.state.pickAnswers.push(byLabel('fr'));
    assert.equal(await chooseLanguage(server, uri), 'fr');
    assert.deepEqual(fake.state.quickPicks[0].items.map((i: { label: string }) => i.label), ['Detect automatically', 'de', 'fr']);
    assert.deepEqual(server.calls[1], { command: 'rephrase.setLanguage', args: [uriString, 'fr'] });
  });

  it('sends null to go back to detection', async () => {
    const server = new FakeServer({
      'rephrase.listStyles': () => styles(),
      'rephrase.setLanguage': () => ({ applied: true, file: null }),
    });
    fake.state.pickAnswers.push(byLabel('Detect automatically'));
    assert.equal(await chooseLanguage(server, uri), null);
    assert.deepEqual(server.calls[1].args, [uriString, null]);
  });
});

describe('usage', () => {
  it('formats counts, limits and "no limit"', () => {
    assert.equal(
      formatUsage({ backend: 'offline', characterCount: 1234, characterLimit: 500000, extra: {} }),
      'Rephrase uses the offline service: 1,234 characters used of 500,000 this period (0.2 %).',
    );
    assert.equal(
      formatUsage({ backend: 'service', characterCount: 5, characterLimit: null, extra: {} }),
      'Rephrase uses the rephrase service: 5 characters used this period (no limit).',
    );
    assert.equal(
      formatUsage({
        backend: 'service',
        characterCount: 5000,
        characterLimit: null,
        extra: { writeCharacterCount: 1200, periodStart: '2026-11-01T00:00:00Z', periodEnd: '2026-12-01T00:00:00Z' },
      }),
      'Rephrase uses the rephrase service: 5,000 characters used this period (no limit). ' +
        'Text improvement: 1,200 characters; billing period 2026-11-01T00:00:00Z to 2026-12-01T00:00:00Z.',
    );
    assert.match(formatUsage({ backend: 'service', characterCount: null, characterLimit: null, extra: {} }), /no character count/);
  });

  it('asks the server for the document and shows the sentence', async () => {
    const server = new FakeServer({
      'rephrase.usage': () => ({ backend: 'offline', characterCount: 10, characterLimit: 100 }),
    });
    const message = await showUsage(server, uri);
    assert.deepEqual(server.calls, [{ command: 'rephrase.usage', args: [uriString] }]);
    assert.deepEqual(fake.state.shown, [{ level: 'info', message }]);
    await assert.rejects(showUsage(new FakeServer({ 'rephrase.usage': () => ({ characterCount: 'many' }) }), undefined), ProtocolError);
  });
});

describe('improving the selection', () => {
  const selection = new fake.Selection(new fake.Position(2, 0), new fake.Position(4, 7));
  const editor = { document: { uri }, selection } as never;

  it('asks the server to improve the LSP range of the selection', async () => {
    const server = new FakeServer({ 'rephrase.improve': () => ({ applied: true, edits: 3 }) });
    assert.equal(await improveSelection(server, editor), 'applied');
    assert.deepEqual(server.calls, [
      {
        command: 'rephrase.improve',
        args: [uriString, { start: { line: 2, character: 0 }, end: { line: 4, character: 7 } }],
      },
    ]);
    assert.deepEqual(fake.state.executed, [], 'no code action of its own');
    assert.deepEqual(fake.state.shown, [], 'the server reports; the client adds nothing');
  });

  it('leaves the explanation of a refusal to the server, and rejects a malformed answer', async () => {
    const refused = new FakeServer({
      'rephrase.improve': () => ({ applied: false, reason: 'the document changed while the improvement was computed' }),
    });
    assert.equal(await improveSelection(refused, editor), 'none');
    assert.deepEqual(fake.state.shown, []);
    for (const answer of [[], null, { applied: 'yes' }, { applied: true, edits: 'many' }]) {
      const bad = new FakeServer({ 'rephrase.improve': () => answer });
      await assert.rejects(improveSelection(bad, editor), ProtocolError, JSON.stringify(answer));
    }
  });

  it('passes a failure of the command on to the caller', async () => {
    const failing = new FakeServer({
      'rephrase.improve': () => {
        throw new Error('the service is unreachable');
      },
    });
    await assert.rejects(improveSelection(failing, editor), /unreachable/);
  });
});

describe('correcting', () => {
  const selection = new fake.Selection(new fake.Position(2, 0), new fake.Position(4, 7));
  const editor = { document: { uri }, selection } as never;

  it('asks the server for corrections only on the selection, or on the whole document', async () => {
    const server = new FakeServer({ 'rephrase.correct': () => ({ applied: true, edits: 1 }) });
    assert.equal(await correctSelection(server, editor), 'applied');
    assert.equal(await correctDocument(server, editor), 'applied');
    assert.deepEqual(server.calls, [
      {
        command: 'rephrase.correct',
        args: [uriString, { start: { line: 2, character: 0 }, end: { line: 4, character: 7 } }],
      },
      { command: 'rephrase.correct', args: [uriString] },
    ]);
    assert.deepEqual(fake.state.shown, [], 'the server reports; the client adds nothing');
  });

  it('leaves a refusal (a service without corrections) to the server, and rejects a malformed answer', async () => {
    const refused = new FakeServer({
      'rephrase.correct': () => ({
        applied: false,
        reason: 'rephrase: This service has no corrections-only mode; Improve works there but rewrites more.',
      }),
    });
    assert.equal(await correctSelection(refused, editor), 'none');
    assert.equal(await correctDocument(refused, editor), 'none');
    assert.deepEqual(fake.state.shown, []);
    const bad = new FakeServer({ 'rephrase.correct': () => ({ applied: 'yes' }) });
    const named = (error: unknown) => error instanceof ProtocolError && /^rephrase\.correct returned/.test(error.message);
    await assert.rejects(correctSelection(bad, editor), named);
    await assert.rejects(correctDocument(bad, editor), named);
  });
});

describe('errorMessage', () => {
  it('takes the message of errors and error-like objects', () => {
    assert.equal(errorMessage(new Error('a')), 'a');
    assert.equal(errorMessage({ code: 1, message: 'b' }), 'b');
    assert.equal(errorMessage(42), '42');
  });
});
