import * as assert from 'node:assert/strict';

import { codeActionMiddleware, parseAlternatives, showAlternatives } from '../src/alternatives';
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
const range = { start: { line: 2, character: 0 }, end: { line: 2, character: 40 } };

function alternative(name: string, kind: 'writingStyle' | 'tone', text: string): Record<string, unknown> {
  const label = `${name} (${kind === 'tone' ? 'tone' : 'writing style'})`;
  return {
    label,
    [kind]: name,
    text,
    preview: text.slice(0, 20),
    edits: { documentChanges: [] },
    command: {
      title: label,
      command: 'rephrase.applyAlternative',
      arguments: [uriString, range, { version: 3, [kind]: name }],
    },
  };
}

const FOUND = {
  uri: uriString,
  version: 3,
  range,
  alternatives: [
    alternative('business', 'writingStyle', 'We cannot finish the report by Friday.'),
    alternative('casual', 'writingStyle', "We'll try to finish the report by Friday."),
    alternative('friendly', 'tone', "We'll do our best to finish by Friday!"),
  ],
  failed: [{ label: 'academic (writing style)', reason: 'quota exceeded' }],
  unchanged: ['simple (writing style)'],
};

describe('alternatives', () => {
  const selection = new fake.Selection(new fake.Position(2, 4), new fake.Position(2, 4));
  const editor = { document: { uri }, selection } as never;

  it('shows each rewrite with its text and applies the one chosen through the server', async () => {
    const server = new FakeServer({
      'rephrase.alternatives': () => FOUND,
      'rephrase.applyAlternative': () => ({ applied: true, edits: 2 }),
    });
    fake.state.pickAnswers.push((items) => items.find((i: { label: string }) => i.label === 'casual (writing style)'));
    assert.equal(await showAlternatives(server, editor), 'casual (writing style)');
    const [pick] = fake.state.quickPicks;
    assert.deepEqual(
      pick.items.map((i: { label: string; detail: string }) => [i.label, i.detail]),
      [
        ['business (writing style)', 'We cannot finish the report by Friday.'],
        ['casual (writing style)', "We'll try to finish the report by Friday."],
        ['friendly (tone)', "We'll do our best to finish by Friday!"],
      ],
    );
    assert.match(pick.options.placeHolder, /not available: academic \(writing style\)/);
    assert.deepEqual(server.calls, [
      {
        command: 'rephrase.alternatives',
        args: [uriString, { start: { line: 2, character: 4 }, end: { line: 2, character: 4 } }],
      },
      {
        command: 'rephrase.applyAlternative',
        args: [uriString, range, { version: 3, writingStyle: 'casual' }],
      },
    ]);
    assert.deepEqual(fake.state.shown, [], 'the server reports; the client adds nothing');
  });

  it('applies nothing when the writer dismisses the pick', async () => {
    const server = new FakeServer({ 'rephrase.alternatives': () => FOUND });
    fake.state.pickAnswers.push(undefined);
    assert.equal(await showAlternatives(server, editor), undefined);
    assert.deepEqual(server.calls.map((c) => c.command), ['rephrase.alternatives']);
  });

  it('shows no pick when the server found none (it has said why)', async () => {
    const server = new FakeServer({
      'rephrase.alternatives': () => ({
        alternatives: [],
        failed: [],
        reason: 'rephrase: no alternatives: the service offers no writing styles or tones for fr.',
      }),
    });
    assert.equal(await showAlternatives(server, editor), undefined);
    assert.deepEqual(fake.state.quickPicks, []);
    assert.deepEqual(fake.state.shown, []);
  });

  it('reports a refused application as nothing applied', async () => {
    const server = new FakeServer({
      'rephrase.alternatives': () => FOUND,
      'rephrase.applyAlternative': () => ({ applied: false, reason: 'the document changed' }),
    });
    fake.state.pickAnswers.push((items) => items[0]);
    assert.equal(await showAlternatives(server, editor), undefined);
  });

  it('rejects a malformed answer', async () => {
    for (const answer of [null, [], { alternatives: 'many' }, { alternatives: [{ label: 'x' }] }]) {
      assert.throws(() => parseAlternatives(answer), ProtocolError, JSON.stringify(answer));
    }
    const noCommand = { alternatives: [{ label: 'a', text: 'b', preview: 'b' }] };
    assert.throws(() => parseAlternatives(noCommand), /no command/);
  });

  it("runs the quick pick for the server's Show alternatives… action, and leaves the others", async () => {
    const serverCommand = { title: 'Show alternatives…', command: 'rephrase.alternatives', arguments: [uriString, range, { pick: true }] };
    const improve = { title: 'Improve', command: { title: 'Improve', command: 'rephrase.applyAction', arguments: [{}] } };
    const bare = { title: 'Improve document', command: 'rephrase.applyAction', arguments: [] };
    const next = async () => [{ title: 'Show alternatives…', kind: 'refactor.rewrite', command: serverCommand }, improve, bare];
    const result = (await codeActionMiddleware!(
      {} as never, {} as never, {} as never, {} as never, next as never,
    )) as { title: string; command: unknown }[];
    assert.deepEqual(result[0].command, { title: 'Show alternatives…', command: 'rephrase.showAlternatives' });
    assert.equal(result[1], improve);
    assert.deepEqual(result[1].command, improve.command);
    assert.equal(result[2], bare);
    assert.equal(await codeActionMiddleware!({} as never, {} as never, {} as never, {} as never, (async () => null) as never), null);
  });
});
