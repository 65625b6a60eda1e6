// Every lint harper.js gives, with its default rules: one JSON object {"text", "language"}
// ("plaintext" or "markdown") per input line in, one JSON list of [start, end, kind] (start and
// end in characters) per line out. HARPER_OFF names rules to turn off (comma-separated:
// LongSentences). Used by bench/bench_unknown_words.py --peers; install harper.js beside it
// first (see bench/data/README.md):
//   npm install --prefix .peers harper.js
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const dist = `${process.env.HARPER_PREFIX ?? ".peers"}/node_modules/harper.js/dist`;
const harper = await import(pathToFileURL(`${dist}/index.js`).href);
const { binaryInlined } = await import(pathToFileURL(`${dist}/binaryInlined.js`).href);
const linter = new harper.LocalLinter({ binary: binaryInlined });
await linter.setup();
const off = (process.env.HARPER_OFF ?? "").split(",").filter((r) => r.length > 0);
if (off.length > 0) {
  await linter.setLintConfig(Object.fromEntries(off.map((rule) => [rule, false])));
}

const lines = readFileSync(0, "utf8").split("\n").filter((l) => l.length > 0);
const out = [];
for (const line of lines) {
  const { text, language } = JSON.parse(line);
  const lints = await linter.lint(text, { language });
  out.push(JSON.stringify(lints.map((l) => [l.span().start, l.span().end, l.lint_kind()])));
}
process.stdout.write(out.join("\n") + "\n");
