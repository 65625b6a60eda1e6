// Apply harper.js's first suggestion for each Spelling or Typo lint to every text: one JSON string per
// input line in, the corrected text as one JSON string per line out. Used by
// bench/bench_quality.py; install harper.js beside it first (see bench/data/README.md):
//   npm install --prefix .peers harper.js
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const dist = `${process.env.HARPER_PREFIX ?? ".peers"}/node_modules/harper.js/dist`;
const harper = await import(pathToFileURL(`${dist}/index.js`).href);
const { binaryInlined } = await import(pathToFileURL(`${dist}/binaryInlined.js`).href);
const linter = new harper.LocalLinter({ binary: binaryInlined });
await linter.setup();

const lines = readFileSync(0, "utf8").split("\n").filter((l) => l.length > 0);
const out = [];
for (const line of lines) {
  let text = JSON.parse(line);
  // Apply from the end so that earlier spans stay valid.
  const lints = (await linter.lint(text, { language: "plaintext" }))
    .filter((l) => (l.lint_kind() === "Spelling" || l.lint_kind() === "Typo") && l.suggestion_count() > 0)
    .sort((a, b) => b.span().start - a.span().start);
  for (const lint of lints) {
    text = await linter.applySuggestion(text, lint, lint.suggestions()[0]);
  }
  out.push(JSON.stringify(text));
}
process.stdout.write(out.join("\n") + "\n");
