"""The pure parts of alternatives and confirmable rewrites: labels, previews, the rewritten
text, the action titles that label the edits, and the ``confirmRewrites`` setting."""

from __future__ import annotations

from rephrase_ls.config.settings import Settings, merge
from rephrase_ls.improve.options import ImproveOptions
from rephrase_ls.lsp.actions import ActionRequest
from rephrase_ls.lsp.alternatives import choices_for, label_of, preview, rewritten
from rephrase_ls.text.diff import TextEdit


def test_labels_name_the_kind() -> None:
    assert label_of(ImproveOptions(writing_style="business")) == "business (writing style)"
    assert label_of(ImproveOptions(tone="friendly")) == "friendly (tone)"


def test_preview_is_one_short_line_cut_at_a_word() -> None:
    assert preview("Short  text\nhere.") == "Short text here."
    long = "word " * 40
    cut = preview(long, 30)
    assert len(cut) <= 30 and cut.endswith("…")
    assert cut[:-1].rstrip() == cut[:-1] and long.startswith(cut[:-1])
    assert "\n" not in preview("a\nb" * 50)
    # No space to cut at: cut at the limit.
    assert preview("x" * 100, 10) == "x" * 9 + "…"


def test_rewritten_applies_the_edits_inside_the_span() -> None:
    text = "Head.\n\nWe can't go. It is late.\n"
    start, end = 7, 7 + len("We can't go. It is late.")
    edits = [TextEdit(10, 15, "cannot"), TextEdit(20, 25, "It's")]
    assert text[10:15] == "can't" and text[20:25] == "It is"
    assert rewritten(text, start, end, edits) == "We cannot go. It's late."
    assert rewritten(text, start, end, []) == text[start:end]


def test_every_style_then_every_tone_the_language_offers() -> None:
    from rephrase_ls.improve.language_choice import LanguageChoice

    choice = LanguageChoice(
        "en-US", "detected", "en-US", ("simple", "business"), ("friendly",), (), None
    )
    assert [label_of(o) for o in choices_for(choice)] == [
        "simple (writing style)",
        "business (writing style)",
        "friendly (tone)",
    ]
    assert choices_for(LanguageChoice("fr", "detected", "fr", (), (), (), "none")) == []


def test_titles_label_the_edits() -> None:
    def title(whole: bool = False, **kw: str) -> str:
        return ActionRequest("file:///a.md", 1, None, whole, ImproveOptions.parse(**kw)).title

    assert title() == "Improve"
    assert title(whole=True) == "Improve document"
    assert title(writing_style="prefer_business") == "Improve: business"
    assert title(tone="friendly") == "Improve: friendly"
    assert title(variant="en-GB") == "Convert to en-GB"


def test_confirm_rewrites_is_a_boolean_setting_off_by_default() -> None:
    assert Settings().confirm_rewrites is False
    on, warnings = merge(Settings(), {"confirmRewrites": True}, "test")
    assert on.confirm_rewrites is True and warnings == []
    bad, warnings = merge(Settings(), {"confirmRewrites": "yes"}, "test")
    assert bad.confirm_rewrites is False
    assert [w.key for w in warnings if not isinstance(w, str)] == ["confirmRewrites"]
