// Fails unless the vscode-languageclient installed needs no newer VS Code than the extension
// declares: the library refuses to start on an editor older than its own engines.vscode.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The lowest version a caret/tilde/>= range such as "^1.82.0" admits, as [major, minor, patch]. */
export function minimumVersion(range) {
  const match = /^\s*(?:\^|~|>=)?\s*(\d+)\.(\d+)\.(\d+)\s*$/.exec(range);
  if (!match) {
    throw new Error(`cannot read the engines range ${JSON.stringify(range)}`);
  }
  return match.slice(1, 4).map(Number);
}

function compare(a, b) {
  for (let i = 0; i < 3; i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return 0;
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

const extension = readJson(join(root, 'package.json'));
const library = readJson(join(root, 'node_modules', 'vscode-languageclient', 'package.json'));
const types = readJson(join(root, 'node_modules', '@types', 'vscode', 'package.json'));

const problems = [];
const ours = extension.engines?.vscode;
const theirs = library.engines?.vscode;
if (!ours) problems.push('package.json has no engines.vscode');
if (!theirs) problems.push('vscode-languageclient has no engines.vscode');
if (ours && theirs) {
  const need = minimumVersion(theirs);
  const have = minimumVersion(ours);
  if (compare(need, have) > 0) {
    problems.push(
      `vscode-languageclient ${library.version} needs VS Code ${theirs} but the extension ` +
        `declares ${ours}: raise engines.vscode or use an older vscode-languageclient`,
    );
  }
  const typesVersion = minimumVersion(types.version);
  if (compare(typesVersion.slice(0, 2).concat([0]), have.slice(0, 2).concat([0])) > 0) {
    problems.push(
      `@types/vscode ${types.version} is newer than engines.vscode ${ours}: the code could use ` +
        'API that the oldest supported editor lacks',
    );
  }
}
const declared = extension.dependencies?.['vscode-languageclient'];
if (declared !== library.version) {
  problems.push(
    `package.json asks for vscode-languageclient ${declared} but ${library.version} is installed (run npm ci)`,
  );
}
if (problems.length > 0) {
  for (const p of problems) console.error(`engines check: ${p}`);
  process.exit(1);
}
console.log(
  `engines check: vscode-languageclient ${library.version} (engines.vscode ${theirs}) fits ` +
    `the extension's engines.vscode ${ours}`,
);
