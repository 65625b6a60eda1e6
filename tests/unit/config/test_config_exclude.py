"""The ``exclude`` setting's patterns: git's rules, relative to the project's root."""

from __future__ import annotations

from pathlib import Path

from rephrase_ls.config.exclude import MAX_PATTERNS, excluded
from rephrase_ls.config.settings import Settings, merge

ROOT = Path("/work/project")


def test_patterns_follow_gitignore_rules() -> None:
    patterns = ["CHANGELOG.md", "vendor/**", "/build/", "*.gen.md", "!keep.gen.md"]
    cases = {
        "CHANGELOG.md": True,
        "docs/CHANGELOG.md": True,  # no slash: at any depth
        "vendor/lib/x.md": True,
        "vendored.md": False,
        "build/out.md": True,
        "docs/build/out.md": False,  # anchored to the root
        "a.gen.md": True,
        "keep.gen.md": False,  # taken back
        "notes.md": False,
    }
    for name, expected in cases.items():
        assert excluded(ROOT / name, ROOT, patterns) is expected, name
    assert excluded(ROOT / "build", ROOT, patterns, is_dir=True)
    assert not excluded(Path("/elsewhere/CHANGELOG.md"), ROOT, patterns)  # outside the root
    assert not excluded(ROOT / "CHANGELOG.md", ROOT, [])


def test_the_layers_add_up_and_bad_values_are_reported() -> None:
    settings, warnings = merge(Settings(), {"exclude": ["CHANGELOG.md"]}, "config.toml")
    settings, more = merge(settings, {"exclude": ["vendor/**", "CHANGELOG.md"]}, ".rephrase.toml")
    assert settings.exclude == ("CHANGELOG.md", "vendor/**")
    assert warnings == more == []
    for bad in (3, [1], {"a": "b"}, [f"x{n}" for n in range(MAX_PATTERNS + 1)]):
        kept, found = merge(settings, {"exclude": bad}, ".rephrase.toml")
        assert kept.exclude == settings.exclude
        assert len(found) == 1 and "exclude" in str(found[0]), bad
