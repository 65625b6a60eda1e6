"""What comment prose protects: inline code in backticks, URLs, identifiers that are clearly code
(``snake_case``, ``camelCase``, ``dotted.names``, ``calls()``, ``{braces}``, words joined by a
comma, semicolon or equals sign with no space, ``key=value;other=x``), file paths and
extensions (``.Z``), reST roles, JSDoc tags with their names and ``TODO(x):`` markers. Shared
by source code comments, Python docstrings, commit messages and plain text."""

from __future__ import annotations

import re

__all__ = ["comment_protected"]

# Names, chains of names and file names are bounded (100 characters a name, 16 names, 255 a
# file name; "`" runs 16): tried at each of the many word starts of a long run such as
# "a.a.a.…" or "a$a$…", an unbounded one would read the rest of the run each time.
_PROTECT = re.compile(
    "|".join(
        (
            r"(`{1,16})[^`\n]+?\1",  # inline code
            r"(?:https?|ftp|file)://[^\s<>]*[^\s<>.,;:!?'\")\]]|www\.[\w.-]+\.[a-z]{2,}[^\s<>]*",
            r"<[A-Za-z][^<>\n]*>",  # <url>, <tag>, <T>
            r":[a-z][\w:.-]*:(?:`[^`\n]*`)?",  # reST role or field (:class:`X`, :param:)
            r"@(?:param|arg|argument|property|prop|throws|exception|typedef|type|template"
            r"|callback|member|var)\b(?:\s+\{[^{}\n]*\})?(?:\s+\[?[\w.$]+(?:=[^\]\s]*)?\]?)?",
            r"@[A-Za-z]\w*(?:\s+\{[^{}\n]*\})?",  # other JSDoc / Javadoc tag, decorator
            r"\{[^{}\n]*\}",  # {type}, {@link X}, {placeholder}
            r"\b(?:TODO|FIXME|XXX|HACK|NOTE|BUG|SAFETY)\b(?:\([^)\n]*\))?:?",
            # (the runs below start where a run of their characters does: tried from every
            # character of a long run, each would scan the rest of it again)
            r"(?:\.{1,2}/|~/|/|(?<![\w.-]))[\w.-]+(?:/[\w.-]+)+/?",  # path
            r"(?<!\.)(?<!::)(?<!->)(?<![\w$])[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*"
            r"\([^()\n]*\)",  # call
            r"(?<!\.)(?<!::)(?<!->)(?<![\w$])[A-Za-z_$][\w$]+(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+\b",
            # dotted.name, a::b
            r"\b\w*_\w+\b",  # snake_case, _private, __dunder__
            # words joined by "," ";" "=" with no space: username,password, rel=back;type="x"
            r"(?<![\w.,;=-])\w[\w.-]{0,99}(?:[,;=][\"'\w][\w.\"'/-]{0,99}){1,16}",
            r"\b[a-z]+[A-Z][\w]*\b|\b[A-Z]+[a-z]+[A-Z]\w*\b",  # camelCase, PascalCase
            r"\*{1,2}[A-Za-z_]\w*",  # *args, **kwargs
            r"(?<!\S)\.[A-Za-z0-9][\w.-]{0,99}",  # .Z, .gitignore: an extension, a dotfile
            r"(?<!\w)(?<!\w-)\b[\w-]+\.(?:py|pyi|js|mjs|ts|tsx|jsx|rs|go|c|h|cc|cpp|hpp|java|lua|sh|md|rst"
            r"|json|toml|ya?ml|txt|cfg|ini|html|css)\b",  # file name
        )
    )
)


def comment_protected(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of ``text[start:end]`` (comment prose) that must come back unchanged."""
    return [m.span() for m in _PROTECT.finditer(text, start, end)]
