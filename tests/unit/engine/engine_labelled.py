"""The labelled sets of tests/data/engine and the quality figures computed on them.

Each ``<target>.jsonl`` line is ``{"input": ..., "expected": ...}``; a line whose expected text
equals its input is a clean sentence that must come back unchanged. Figures:

- precision: of the edits the engine made (word-level, spaces and punctuation are their own
  units), the share that are also edits of ``input -> expected``;
- recall: of the expected edits, the share the engine made;
- false-change rate: the share of clean sentences the engine changed at all;
- detection accuracy: on every input of 8+ words, the share whose detected language is the
  base of its set's target; plus ``detect.tsv``, short sentences (8-10 words) with the same
  content in all six languages.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from rephrase_ls.offline.engine import detect_language, improve

DATA = Path(__file__).resolve().parents[2] / "data" / "engine"
_UNITS = re.compile(r"\w+|\s+|[^\w\s]", re.UNICODE)


@dataclass(frozen=True)
class Example:
    """One labelled sentence."""

    target: str
    input: str
    expected: str

    @property
    def clean(self) -> bool:
        return self.input == self.expected


def load_sets() -> dict[str, list[Example]]:
    """All labelled sets, by target (file name without ``.jsonl``)."""
    sets: dict[str, list[Example]] = {}
    for path in sorted(DATA.glob("*.jsonl")):
        target = path.stem
        examples = []
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            obj = json.loads(line)
            if set(obj) != {"input", "expected"}:
                raise ValueError(f"{path.name}:{n}: expected keys input and expected")
            examples.append(Example(target, obj["input"], obj["expected"]))
        sets[target] = examples
    return sets


def _edits(a: str, b: str) -> set[tuple[int, int, str]]:
    """Edits turning ``a`` into ``b`` as (first unit, end unit, replacement) triples."""
    ua, ub = _UNITS.findall(a), _UNITS.findall(b)
    matcher = difflib.SequenceMatcher(a=ua, b=ub, autojunk=False)
    return {
        (i1, i2, "".join(ub[j1:j2]))
        for op, i1, i2, j1, j2 in matcher.get_opcodes()
        if op != "equal"
    }


@dataclass
class Figures:
    """Quality figures of one set (or of all sets together)."""

    made: int = 0
    right: int = 0
    expected: int = 0
    clean: int = 0
    clean_changed: int = 0
    detect_total: int = 0
    detect_right: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.right / self.made if self.made else 1.0

    @property
    def recall(self) -> float:
        return self.right / self.expected if self.expected else 1.0

    @property
    def false_change_rate(self) -> float:
        return self.clean_changed / self.clean if self.clean else 0.0

    @property
    def detection_accuracy(self) -> float:
        return self.detect_right / self.detect_total if self.detect_total else 1.0

    def add(self, other: Figures) -> None:
        self.made += other.made
        self.right += other.right
        self.expected += other.expected
        self.clean += other.clean
        self.clean_changed += other.clean_changed
        self.detect_total += other.detect_total
        self.detect_right += other.detect_right
        self.failures.extend(other.failures)


def evaluate(examples: list[Example]) -> Figures:
    """Run the engine on ``examples`` and count."""
    fig = Figures()
    for ex in examples:
        out = improve(ex.input, ex.target)
        made = _edits(ex.input, out)
        wanted = _edits(ex.input, ex.expected)
        fig.made += len(made)
        fig.right += len(made & wanted)
        fig.expected += len(wanted)
        if made - wanted:
            fig.failures.append(f"[{ex.target}] {ex.input!r} -> {out!r} (want {ex.expected!r})")
        if ex.clean:
            fig.clean += 1
            fig.clean_changed += out != ex.input
        if len(re.findall(r"[^\W\d_]+", ex.input)) >= 8:
            fig.detect_total += 1
            detected = detect_language(ex.input)
            if detected == ex.target.split("-")[0]:
                fig.detect_right += 1
            else:
                fig.failures.append(f"[{ex.target}] detected {detected!r}: {ex.input!r}")
    return fig


def load_detection_sample() -> list[tuple[str, str]]:
    """(language, sentence) pairs of ``detect.tsv``: short sentences of 8-10 words."""
    pairs = []
    lines = (DATA / "detect.tsv").read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        lang, sep, text = line.partition("\t")
        if not sep or not text:
            raise ValueError(f"detect.tsv:{n}: expected language<TAB>sentence")
        pairs.append((lang, text))
    return pairs


def load_unsupported_sample() -> list[tuple[str, str]]:
    """(language, sentence) pairs of ``detect_unsupported.tsv``: sentences in languages the
    engine does not support (Dutch, Polish, Catalan...), for which detection must say None."""
    pairs = []
    lines = (DATA / "detect_unsupported.tsv").read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        lang, sep, text = line.partition("\t")
        if not sep or not text:
            raise ValueError(f"detect_unsupported.tsv:{n}: expected language<TAB>sentence")
        pairs.append((lang, text))
    return pairs


def unsupported_misdetections(pairs: list[tuple[str, str]]) -> list[str]:
    """The sentences of ``pairs`` that were given a language (each should give None)."""
    wrong = []
    for lang, text in pairs:
        detected = detect_language(text)
        if detected is not None:
            wrong.append(f"[{lang}] detected {detected!r}: {text!r}")
    return wrong


def evaluate_detection(pairs: list[tuple[str, str]]) -> Figures:
    """Detection figures on ``(language, sentence)`` pairs."""
    fig = Figures()
    for lang, text in pairs:
        fig.detect_total += 1
        detected = detect_language(text)
        if detected == lang:
            fig.detect_right += 1
        else:
            fig.failures.append(f"[detect {lang}] detected {detected!r}: {text!r}")
    return fig


def evaluate_all() -> tuple[dict[str, Figures], Figures]:
    """Figures per set (plus ``detect`` for the detection sample) and in total."""
    per: dict[str, Figures] = {}
    total = Figures()
    for target, examples in load_sets().items():
        per[target] = evaluate(examples)
        total.add(per[target])
    per["detect"] = evaluate_detection(load_detection_sample())
    total.add(per["detect"])
    return per, total


if __name__ == "__main__":
    per_set, all_sets = evaluate_all()
    for name, f in [*per_set.items(), ("all", all_sets)]:
        print(
            f"{name:6} precision {f.precision:6.1%} ({f.right}/{f.made})  recall {f.recall:6.1%}"
            f"  clean changed {f.false_change_rate:5.1%} ({f.clean_changed}/{f.clean})"
            f"  detection {f.detection_accuracy:6.1%} ({f.detect_right}/{f.detect_total})"
        )
    unsupported = load_unsupported_sample()
    misdetected = unsupported_misdetections(unsupported)
    print(
        f"unsupported languages: None for {len(unsupported) - len(misdetected)}/{len(unsupported)}"
    )
    for line in [*all_sets.failures, *misdetected]:
        print(" ", line)
