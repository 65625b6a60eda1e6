"""Quality of the offline engine on public data, beside codespell and harper.js.

The measures (data and licences: ``bench/data/README.md``):

* **clean prose**: the share of well-edited sentences (the react.dev, Vue and Vite
  documentation in de, en, es, fr, it, pt; ``bench/data/clean-LANG.txt``) that a tool
  changes at all. Every change there is a change to published text
  (``bench/data/judged-clean.tsv`` judges each).
  A sentence that starts in lower case goes on a sentence of its page: the engine's capital
  on it is left out, as the pipeline does in a document (``engine_fix_in_page``).
* **learner misspellings**: the Holbrook corpus (secondary-school free writing, misspellings
  tagged with their corrections), not committed (see the README for how to get it). A
  *non-word* error is a tagged single-word misspelling that Hunspell's en_US and en_GB
  dictionaries reject. Recall: the share of those the tool replaces by the tagged
  correction. Precision: the share of all word replacements the tool makes in those
  sentences that equal the tagged correction, capitals aside (a replacement of an untagged
  word counts as wrong here; the hand-judged list in ``bench/data/judged-holbrook.tsv``
  checks that).
  Lines of both sets alternate between a dev split (even) and a test split (odd): tune on
  dev, report test.
* **misspelt words** (``--birkbeck DIR``): Peter Norvig's two lists of misspellings drawn from
  Roger Mitton's Birkbeck spelling error corpus (``spell-testset1.txt``, the dev split, and
  ``spell-testset2.txt``, the test split; see the README), each misspelling alone as a text.
  Non-words, recall and precision as for Holbrook.

* **learner misspellings in German, Spanish, Italian and Portuguese** (``--falko-merlin DIR``,
  ``--cows DIR``, ``--valico FILE``, ``--ugc DIR``; any of them prints only these): the
  Falko-MERLIN GEC corpus's German learner sentences with their target hypotheses (M2 files;
  non-words: one-word corrections whose written word Hunspell de_DE and de_AT reject; Boyd's
  dev and test files are the splits), COWS-L2H's Spanish learner essays
  with instructors' corrections (non-words: aligned single-word corrections that Hunspell
  es_ES/es_MX rejects), UD Italian-Valico's learner sentences with their marked corrections
  (non-words: Hunspell it_IT rejects them) and UGCNormal's Brazilian Portuguese product
  reviews (non-words: the annotators' ``O`` tags).
  Same figures as for Holbrook; texts alternate between the splits as above.

Run (from the repository root, with the project's venv)::

    .venv/bin/python bench/bench_quality.py --holbrook PATH/holbrook-tagged.dat
        [--birkbeck DIR] [--peers]
        [--split test] [--show-changes N] [--sample FILE]
    .venv/bin/python bench/bench_quality.py --cows DIR --valico FILE --ugc DIR [--split test]
    .venv/bin/python bench/bench_quality.py --falko-merlin DIR [--split test]

``--peers`` also runs codespell (``pip install codespell``) and harper.js
(``npm install --prefix .peers harper.js``; first suggestion of each Spelling/Typo lint).
The non-word test needs ``spylls`` (pip) and Hunspell's en_US/en_GB dictionaries
(Debian ``hunspell-en-us hunspell-en-gb``, or ``--hunspell DIR``); ``--cows`` es_ES/es_MX
(Debian ``hunspell-es``), ``--valico`` it_IT (``hunspell-it``), ``--falko-merlin`` de_DE/de_AT
(``hunspell-de-de hunspell-de-at``).
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

from rephrase_ls.offline import engine  # noqa: E402

DATA = ROOT / "bench" / "data"
LANGS = ("de", "en", "es", "fr", "it", "pt")
_WORD = re.compile(r"[^\W\d_]+(?:['’´`ʼ][^\W\d_]+)*")
_ERR = re.compile(r"<ERR targ=([^>]*)>\s*(.*?)\s*</ERR>")

Fixer = Callable[[list[str], str], list[str]]


def clean_sentences(lang: str) -> list[str]:
    lines = (DATA / f"clean-{lang}.txt").read_text(encoding="utf-8").splitlines()
    return [line.split("\t", 1)[1] for line in lines if line and not line.startswith("#")]


def engine_fix(texts: list[str], lang: str) -> list[str]:
    return [engine.improve(t, lang) for t in texts]


def engine_fix_in_page(texts: list[str], lang: str) -> list[str]:
    """The engine on clean sentences as the pipeline applies it in their page: a sentence that
    starts with a lower-case letter goes on a sentence of its page (after a code block, a list
    or a line the extraction dropped), and the pipeline keeps such a paragraph's first letter
    as it is (``open_sentence.keep_open_sentence``); the engine alone cannot know."""
    from rephrase_ls.guards.open_sentence import keep_open_sentence

    return [
        keep_open_sentence(t, out) if t[:1].islower() else out
        for t, out in zip(texts, engine_fix(texts, lang), strict=True)
    ]


def run_codespell(texts: list[str], *flags: str) -> tuple[list[str], str]:
    """codespell with its default dictionary on ``texts`` (one a line): the lines afterwards
    (changed when ``flags`` hold ``-w``) and its report."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "texts.txt"
        path.write_text("\n".join(texts) + "\n", encoding="utf-8")
        report = subprocess.run(
            [sys.executable, "-m", "codespell_lib", *flags, str(path)],
            capture_output=True, check=False, text=True,
        ).stdout
        out = path.read_text(encoding="utf-8").split("\n")[: len(texts)]
    return out, report


def codespell_fix(texts: list[str], lang: str) -> list[str]:
    """codespell with its default dictionary, writing its unambiguous fixes."""
    return run_codespell(texts, "-w", "-q", "3")[0]


_CODESPELL_REPORT = re.compile(r":(\d+): (\S+) ==> ")


def codespell_flags(texts: list[str]) -> list[list[str]]:
    """The words codespell flags (any of its findings, ambiguous ones too) in each text, which
    holds no line break; codespell reports words, not columns."""
    flagged: list[list[str]] = [[] for _ in texts]
    for line in run_codespell(texts)[1].splitlines():
        m = _CODESPELL_REPORT.search(line)
        if m:
            flagged[int(m.group(1)) - 1].append(m.group(2))
    return flagged


def harper_fix(texts: list[str], lang: str) -> list[str]:
    """harper.js (English only): the first suggestion of each Spelling/Typo lint."""
    if lang != "en":
        return list(texts)
    proc = subprocess.run(
        ["node", str(ROOT / "bench" / "peers" / "harper_fix.mjs")],
        input="\n".join(json.dumps(t) for t in texts) + "\n",
        capture_output=True, text=True, check=True, cwd=ROOT,
    )
    return [json.loads(line) for line in proc.stdout.splitlines()]


def parse_holbrook(path: Path) -> list[tuple[str, list[tuple[int, str, str]]]]:
    """Each tagged line: the text as written, and its errors as (word index, written,
    correction) for single-word errors."""
    out = []
    for raw in path.read_text(encoding="latin-1").splitlines():
        if "<ERR" not in raw and len(_WORD.findall(raw)) < 4:
            continue  # headings such as "1." and "NIGEL THRUSH page 48"
        text_parts: list[str] = []
        errors: list[tuple[int, str, str]] = []
        pos = 0
        for m in _ERR.finditer(raw):
            text_parts.append(raw[pos : m.start()])
            before = "".join(text_parts)
            written, target = m.group(2), m.group(1).strip()
            if _WORD.fullmatch(written) and _WORD.fullmatch(target):
                errors.append((len(_WORD.findall(before)), written, target))
            text_parts.append(written)
            pos = m.end()
        text_parts.append(raw[pos:])
        text = re.sub(r"\s+", " ", "".join(text_parts)).strip()
        if text:
            out.append((text, errors))
    return out


def parse_norvig(path: Path) -> list[tuple[str, list[tuple[int, str, str]]]]:
    """Each single-word misspelling of a ``correct: wrong wrong...`` list as a one-word text
    with its error, in the order of the file (a repeated misspelling once per correction)."""
    out: list[tuple[str, list[tuple[int, str, str]]]] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        target, sep, wrongs = raw.partition(":")
        if not sep or not _WORD.fullmatch(target.strip()):
            continue
        seen: set[str] = set()
        for wrong in wrongs.split():
            if wrong not in seen and _WORD.fullmatch(wrong):
                seen.add(wrong)
                out.append((wrong, [(0, wrong, target.strip())]))
    return out


def replacements(before: str, after: str) -> list[tuple[int, str, str]]:
    """Word-for-word replacements from ``before`` to ``after``: (word index, old, new)."""
    a, b = _WORD.findall(before), _WORD.findall(after)
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "replace" and i2 - i1 == j2 - j1:
            pairs = [(i1 + k, a[i1 + k], b[j1 + k]) for k in range(i2 - i1)]
            out += [(i, old, new) for i, old, new in pairs if old != new]
        elif op != "equal":
            out += [(i1 + k, a[i1 + k], " ".join(b[j1:j2])) for k in range(i2 - i1)]
    return out


def hunspell_en(directory: Path) -> Callable[[str], bool]:
    from spylls.hunspell import Dictionary

    dicts = [Dictionary.from_files(str(directory / name)) for name in ("en_US", "en_GB")]
    return lambda word: any(d.lookup(word) for d in dicts)


def learner(
    lines: list[tuple[str, list[tuple[int, str, str]]]],
    fixer: Fixer,
    is_word: Callable[[str], bool],
) -> tuple[dict[str, float], list[tuple[int, str, str, str]]]:
    texts = [text for text, _ in lines]
    fixed_texts = fixer(texts, "en")
    nonwords = fixed = changes = right = 0
    log: list[tuple[int, str, str, str]] = []
    for number, ((text, errors), out) in enumerate(zip(lines, fixed_texts, strict=True)):
        targets = {i: (w, t) for i, w, t in errors}
        for i, old, new in replacements(text, out):
            if old.lower() == new.lower():
                continue  # capitals: not a spelling change (the clean-prose figure counts them)
            changes += 1
            target = targets.get(i)
            ok = target is not None and new.lower() == target[1].lower()
            right += ok
            log.append((number, old, new, "auto-correct" if ok else "?"))
        changed = {i: new for i, _, new in replacements(text, out)}
        for i, written, target in errors:
            if is_word(written):
                continue
            nonwords += 1
            fixed += changed.get(i, "").lower() == target.lower()
    return {
        "nonwords": nonwords,
        "recall": fixed / nonwords if nonwords else 0.0,
        "changes": changes,
        "precision": right / changes if changes else 1.0,
    }, log


# --- Learner text in other languages (``--cows DIR``, ``--ugc DIR``) -----------------------

Lines = list[tuple[str, list[tuple[int, str, str]]]]


def _word_pairs(written: str, corrected: str) -> list[tuple[int, str, str]]:
    """The single-word corrections from ``written`` to ``corrected`` (word index, written,
    correction), capitals aside: each word of a one-for-one replacement in a word alignment."""
    a, b = _WORD.findall(written), _WORD.findall(corrected)
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "replace" and i2 - i1 == j2 - j1:
            out += [
                (i1 + k, a[i1 + k], b[j1 + k])
                for k in range(i2 - i1)
                if a[i1 + k].lower() != b[j1 + k].lower()
            ]
    return out


def parse_cows(root: Path) -> Lines:
    """COWS-L2H (UC Davis Corpus of Written Spanish, L2 and Heritage Speakers): each essay that
    has an instructor's correction (``PROMPT/TERM/corrected/ID.corrected.txt``; the second
    corrections, ``… (1).txt``, are left out) as one text, with the single-word corrections of
    a word alignment as its errors. In a fixed order (sorted paths)."""
    out: Lines = []
    essays = {p.as_posix().lower(): p for p in root.glob("*/*/essays/*.txt")}
    for corrected in sorted(root.glob("*/*/corrected/*.corrected.txt")):
        name = corrected.parent.parent / "essays" / corrected.name.replace(".corrected", "")
        essay = essays.get(name.as_posix().lower())  # "…_beautiful" beside "…_Beautiful"
        if essay is None:
            continue
        written = re.sub(r"\s+", " ", essay.read_text(encoding="utf-8", errors="replace")).strip()
        fixed = corrected.read_text(encoding="utf-8", errors="replace")
        if written:
            out.append((written, _word_pairs(written, fixed)))
    return out


_UGC_TAG = re.compile(r"(\S*?)\*([A-Z]{1,2})\[([^\]]*)\]")


def parse_ugc(root: Path) -> Lines:
    """UGCNormal's annotated product reviews (Brazilian Portuguese, ``annotation_data``): each
    review line as written (tags removed), its errors the words tagged ``O`` (a non-word
    misspelling, by the annotators) with their correction, single words only."""
    out: Lines = []
    for name in ("Buscape_anotado_60_reviews.txt", "ML_anotado_60_reviews.txt"):
        for raw in (root / "annotation_data" / name).read_text(encoding="utf-8").splitlines():
            if raw.startswith((">>>", "###")) or raw.strip() in ("Prós:", "Contras:", "Conclusão:"):
                continue
            parts: list[str] = []
            errors: list[tuple[int, str, str]] = []
            pos = 0
            for m in _UGC_TAG.finditer(raw):
                parts.append(raw[pos : m.start()])
                written, tag, target = m.group(1), m.group(2), m.group(3).strip()
                if tag == "O" and _WORD.fullmatch(written) and _WORD.fullmatch(target):
                    errors.append((len(_WORD.findall("".join(parts))), written, target))
                parts.append(written)
                pos = m.end()
            parts.append(raw[pos:])
            text = re.sub(r"\s+", " ", "".join(parts)).strip().lstrip("- ").strip()
            if len(_WORD.findall(text)) >= 4:
                out.append((text, errors))
    return out


_VALICO_TAG = re.compile(r"<([A-Z]+)><i>(.*?)</i><c>(.*?)</c></\1>")


def parse_valico(path: Path) -> Lines:
    """UD Italian-Valico (``it_valico-ud-test.conllu``): each learner sentence as written
    (``# text``), its errors the single-word corrections of its ``# err`` line
    (``<TAG><i>written</i><c>correction</c></TAG>``), capitals aside."""
    out: Lines = []
    text = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        if raw.startswith("# text = "):
            text = raw[len("# text = ") :].strip()
        elif raw.startswith("# err = ") and text:
            err = raw[len("# err = ") :]
            parts: list[str] = []
            errors: list[tuple[int, str, str]] = []
            pos = 0
            for m in _VALICO_TAG.finditer(err):
                parts.append(err[pos : m.start()])
                written, target = m.group(2).strip(), m.group(3).strip()
                if (
                    _WORD.fullmatch(written)
                    and _WORD.fullmatch(target)
                    and written.lower() != target.lower()
                ):
                    errors.append((len(_WORD.findall("".join(parts))), written, target))
                parts.append(m.group(2))
                pos = m.end()
            if _WORD.findall(text) == _WORD.findall("".join(parts) + err[pos:]):
                out.append((text, errors))  # the markup agrees with the sentence
            text = ""
    return out


_GLUE_LEFT = frozenset(".,;:!?)]}»“")
_GLUE_RIGHT = frozenset("([{„«")


def parse_m2(path: Path) -> Lines:
    """A corpus in M2 form (``S`` a tokenized sentence, ``A start end|||type|||correction|||…``
    its edits; annotator 0 only): each sentence as one text, its tokens joined as a writer
    would (no space before ``. , ; : ! ? )``, none inside quotes), and its errors the edits of
    one word to one word, capitals aside."""
    out: Lines = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = block.strip().splitlines()
        if not lines or not lines[0].startswith("S "):
            continue
        tokens = lines[0][2:].split(" ")
        parts: list[str] = []
        starts: list[int] = []  # word index of each token
        open_quote = False
        glue_next = True
        for token in tokens:
            quote = token in ('"', "''", "``")
            if quote:
                token = '"'
            glue = glue_next or token in _GLUE_LEFT or (quote and open_quote)
            if quote:
                open_quote = not open_quote
            if parts and not glue:
                parts.append(" ")
            starts.append(len(_WORD.findall("".join(parts))))
            parts.append(token)
            glue_next = token in _GLUE_RIGHT or (quote and open_quote)
        text = "".join(parts)
        errors: list[tuple[int, str, str]] = []
        for line in lines[1:]:
            fields = line[2:].split("|||")
            if len(fields) < 6 or fields[5].strip() != "0":
                continue
            span, target = fields[0].split(), fields[2].strip()
            first, last = int(span[0]), int(span[1])
            if last - first != 1:
                continue
            written = tokens[first]
            if (
                _WORD.fullmatch(written)
                and _WORD.fullmatch(target)
                and written.lower() != target.lower()
            ):
                errors.append((starts[first], written, target))
        if len(_WORD.findall(text)) >= 3:
            out.append((text, errors))
    return out


def parse_falko_merlin(root: Path, split: str) -> Lines:
    """The Falko-MERLIN GEC corpus (German learner sentences and their target hypotheses, as
    Boyd 2018 split it): ``fm-dev.m2`` is the dev split, ``fm-test.m2`` the test split."""
    names = {"dev": ("fm-dev.m2",), "test": ("fm-test.m2",), "all": ("fm-dev.m2", "fm-test.m2")}
    return [line for name in names[split] for line in parse_m2(root / name)]


def hunspell(directory: Path, names: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether any of the named Hunspell dictionaries accepts a word."""
    from spylls.hunspell import Dictionary

    found = [n for n in names if (directory / f"{n}.dic").is_file()]
    dicts = [Dictionary.from_files(str(directory / n)) for n in found]
    if not dicts:
        raise SystemExit(f"no Hunspell dictionary {', '.join(names)} in {directory}")
    return lambda word: any(d.lookup(word) for d in dicts)


def other_learners(args: argparse.Namespace) -> None:
    """Print the learner-text figures of the engine for Spanish (COWS-L2H), Italian (UD
    Italian-Valico) and Portuguese (UGCNormal); with ``--show-changes N``, up to N changes of
    each (text number, written, changed to, whether it is the correction) on stderr."""
    sets: list[tuple[str, str, Lines, Callable[[str], bool]]] = []
    if args.cows is not None:
        is_word = hunspell(args.hunspell, ("es_ES", "es_MX"))
        sets.append(("es", "COWS-L2H essays", parse_cows(args.cows), is_word))
    if args.valico is not None:
        is_word = hunspell(args.hunspell, ("it_IT",))
        sets.append(("it", "UD Italian-Valico sentences", parse_valico(args.valico), is_word))
    if args.falko_merlin is not None:
        is_word = hunspell(args.hunspell, ("de_DE", "de_AT"))
        lines = parse_falko_merlin(args.falko_merlin, args.split)
        sets.append(("de", "Falko-MERLIN sentences", lines, is_word))
    if args.ugc is not None:
        # The annotators' "O" tag marks the non-words; no dictionary decides.
        sets.append(("pt", "UGCNormal reviews", parse_ugc(args.ugc), lambda _word: False))
    for lang, title, lines, is_word in sets:
        if args.split != "all" and lang != "de":  # Falko-MERLIN comes split
            lines = lines[args.split == "test" :: 2]
        print(f"\nLearner misspellings, {lang} ({title}, {args.split} split, {len(lines)} texts)")
        print(f"{'tool':14}{'non-words':>10}{'fixed':>9}{'changes':>9}{'precision':>11}")
        figures, log = learner(lines, lambda texts, _lang, code=lang: engine_fix(texts, code),
                               is_word)
        print(f"{'rephrase-ls':14}{figures['nonwords']:>10}{100 * figures['recall']:>8.1f}%"
              f"{figures['changes']:>9}{100 * figures['precision']:>10.1f}%")
        for number, old, new, verdict in log[: args.show_changes]:
            print(f"  [{lang}] {number}\t{old}\t{new}\t{verdict}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--holbrook", type=Path, help="holbrook-tagged.dat (see the README)")
    parser.add_argument("--birkbeck", type=Path,
                        help="folder of spell-testset1.txt and spell-testset2.txt (the README)")
    parser.add_argument("--hunspell", type=Path, default=Path("/usr/share/hunspell"))
    parser.add_argument("--split", choices=("dev", "test", "all"), default="test")
    parser.add_argument("--peers", action="store_true", help="also run codespell and harper.js")
    parser.add_argument("--langs", default=",".join(LANGS))
    parser.add_argument("--show-changes", type=int, default=0, metavar="N",
                        help="print up to N changes per language on clean prose")
    parser.add_argument("--sample", type=Path,
                        help="write every learner-text change (TSV, random order) to judge")
    parser.add_argument("--cows", type=Path,
                        help="a checkout of COWS-L2H (Spanish learner essays, the README)")
    parser.add_argument("--ugc", type=Path,
                        help="a checkout of UGCNormal (Portuguese reviews, the README)")
    parser.add_argument("--falko-merlin", type=Path,
                        help="folder of fm-dev.m2 and fm-test.m2 (German learners, the README)")
    parser.add_argument("--valico", type=Path,
                        help="UD Italian-Valico's it_valico-ud-test.conllu (the README)")
    args = parser.parse_args()
    if any(x is not None for x in (args.cows, args.ugc, args.valico, args.falko_merlin)):
        other_learners(args)
        return
    tools: dict[str, Fixer] = {"rephrase-ls": engine_fix}
    if args.peers:
        tools["codespell"] = codespell_fix
        tools["harper.js"] = harper_fix

    print("Clean prose: sentences changed (lower is better)")
    print(f"{'lang':6}{'sentences':>10}" + "".join(f"{name:>14}" for name in tools))
    for lang in args.langs.split(","):
        texts = clean_sentences(lang)
        if args.split != "all":
            texts = texts[args.split == "test" :: 2]
        row = f"{lang:6}{len(texts):>10}"
        for name, fixer in tools.items():
            start = time.perf_counter()
            outs = (engine_fix_in_page if fixer is engine_fix else fixer)(texts, lang)
            changed = [(t, o) for t, o in zip(texts, outs, strict=True) if t != o]
            row += f"{100 * len(changed) / len(texts):>13.2f}%"
            if name == "rephrase-ls" and args.show_changes:
                for t, o in changed[: args.show_changes]:
                    print(f"  [{lang}] {replacements(t, o) or (t, o)}", file=sys.stderr)
            del start
        print(row)

    is_word = hunspell_en(args.hunspell) if args.holbrook or args.birkbeck else None
    if args.birkbeck is not None and is_word is not None:
        name = "spell-testset2.txt" if args.split == "test" else "spell-testset1.txt"
        words = parse_norvig(args.birkbeck / name)
        if args.split == "all":
            words += parse_norvig(args.birkbeck / "spell-testset2.txt")
        print(f"\nMisspelt words (Birkbeck via Norvig, {args.split} split, {len(words)} words)")
        print(f"{'tool':14}{'non-words':>10}{'fixed':>9}{'changes':>9}{'precision':>11}")
        for tool, fixer in tools.items():
            figures, log = learner(words, fixer, is_word)
            print(f"{tool:14}{figures['nonwords']:>10}{100 * figures['recall']:>8.1f}%"
                  f"{figures['changes']:>9}{100 * figures['precision']:>10.1f}%")
            if tool == "rephrase-ls" and args.show_changes:
                wrong = [entry for entry in log if entry[3] != "auto-correct"]
                for number, old, new, _ in wrong[: args.show_changes]:
                    print(f"  [birkbeck] {number} {old} -> {new} "
                          f"(meant {words[number][1][0][2]})", file=sys.stderr)

    if args.holbrook is None or is_word is None:
        print("\nLearner misspellings: skipped (give --holbrook PATH, see bench/data/README.md)")
        return
    lines = parse_holbrook(args.holbrook)
    if args.split != "all":
        lines = lines[args.split == "test" :: 2]
    print(f"\nLearner misspellings (Holbrook, {args.split} split, {len(lines)} lines)")
    print(f"{'tool':14}{'non-words':>10}{'fixed':>9}{'changes':>9}{'precision':>11}")
    for name, fixer in tools.items():
        figures, log = learner(lines, fixer, is_word)
        print(f"{name:14}{figures['nonwords']:>10}{100 * figures['recall']:>8.1f}%"
              f"{figures['changes']:>9}{100 * figures['precision']:>10.1f}%")
        if name == "rephrase-ls" and args.sample is not None:
            chosen = random.Random(7).sample(log, len(log))
            with args.sample.open("w", encoding="utf-8") as fh:
                # The line's number among the corpus's text lines (parse_holbrook, the split
                # chosen), not its text: the corpus is not ours to republish.
                fh.write("line\twritten\tchanged to\tjudgement\n")
                for number, old, new, verdict in chosen:
                    fh.write(f"{number}\t{old}\t{new}\t{verdict}\n")

if __name__ == "__main__":
    main()
