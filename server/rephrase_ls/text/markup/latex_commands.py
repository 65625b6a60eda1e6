"""The LaTeX commands and environments the prose extractor knows: which hold prose, which break
a paragraph, which are opaque, and the argument specifications pylatexenc lacks."""

from __future__ import annotations

from functools import lru_cache

from pylatexenc.latexwalker import get_default_latex_context_db
from pylatexenc.macrospec import LatexContextDb, MacroSpec, SpecialsSpec

__all__ = [
    "BLOCK_COMMANDS",
    "FLUSH_MARK",
    "OPAQUE_ENVIRONMENTS",
    "SECTIONING",
    "TEXT_COMMANDS",
    "latex_context",
]

#: A character (of Unicode's private use area) that pylatexenc reads as a special character of
#: its own: the prose extractor puts it into long runs of plain text, which pylatexenc gathers
#: in quadratic time, so that it ends each run at most a few hundred characters long.
FLUSH_MARK = "\ue000"

#: commands whose (last) argument is a block of prose of its own
SECTIONING = frozenset(
    [
        "part",
        "chapter",
        "section",
        "subsection",
        "subsubsection",
        "paragraph",
        "subparagraph",
        "caption",
        "title",
        "subtitle",
        "frametitle",
        "framesubtitle",
    ]
)
#: commands whose (last) argument is prose inside the sentence around it
TEXT_COMMANDS = frozenset(
    [
        "emph",
        "textbf",
        "textit",
        "textsl",
        "textsc",
        "textup",
        "textmd",
        "textrm",
        "textsf",
        "textnormal",
        "underline",
        "uline",
        "enquote",
        "footnote",
        "footnotetext",
        "mbox",
        "hbox",
        "text",
        "intertext",
        "marginpar",
        "thanks",
    ]
)
#: commands that separate paragraphs and are not prose themselves
BLOCK_COMMANDS = frozenset(
    [
        "item",
        "par",
        "maketitle",
        "newpage",
        "clearpage",
        "cleardoublepage",
        "pagebreak",
        "linebreak",
        "bigskip",
        "medskip",
        "smallskip",
        "vspace",
        "vskip",
        "tableofcontents",
        "listoffigures",
        "listoftables",
        "bibliography",
        "bibliographystyle",
        "printbibliography",
        "addbibresource",
        "documentclass",
        "usepackage",
        "RequirePackage",
        "newcommand",
        "renewcommand",
        "providecommand",
        "newenvironment",
        "renewenvironment",
        "def",
        "let",
        "author",
        "date",
        "address",
        "institute",
        "affiliation",
        "email",
        "keywords",
        "centering",
        "raggedright",
        "raggedleft",
        "appendix",
        "frontmatter",
        "mainmatter",
        "backmatter",
        "input",
        "include",
        "includeonly",
        "setlength",
        "addtolength",
        "setcounter",
        "graphicspath",
        "hypersetup",
        "geometry",
        "pagestyle",
        "thispagestyle",
        "noindent",
        "indent",
        "includegraphics",
    ]
)
#: environments that are not prose at all
OPAQUE_ENVIRONMENTS = frozenset(
    [
        "equation",
        "equation*",
        "align",
        "align*",
        "alignat",
        "alignat*",
        "flalign",
        "flalign*",
        "gather",
        "gather*",
        "multline",
        "multline*",
        "eqnarray",
        "eqnarray*",
        "math",
        "displaymath",
        "split",
        "dmath",
        "dmath*",
        "subequations",
        "verbatim",
        "verbatim*",
        "Verbatim",
        "BVerbatim",
        "lstlisting",
        "minted",
        "comment",
        "alltt",
        "tabular",
        "tabular*",
        "tabularx",
        "tabulary",
        "longtable",
        "array",
        "tikzpicture",
        "pgfpicture",
        "picture",
        "filecontents",
        "filecontents*",
        "thebibliography",
        "algorithmic",
        "algorithmic*",
        "tikzcd",
        "axis",
        "circuitikz",
        "pspicture",
        "forest",
    ]
)

# Argument specifications pylatexenc lacks, so that these commands come with their arguments.
_EXTRA_MACROS = (
    *(MacroSpec(name, "*[{") for name in SECTIONING),
    *(MacroSpec(name, "{") for name in TEXT_COMMANDS if name not in ("footnote", "thanks")),
    MacroSpec("footnote", "[{"),
    MacroSpec("footnotetext", "[{"),
    MacroSpec("thanks", "{"),
    MacroSpec("foreignlanguage", "[{{"),
    *(
        MacroSpec(name, "*[[{")
        for name in (
            [
                "cite",
                "citep",
                "citet",
                "citealt",
                "citealp",
                "citeauthor",
                "citeyear",
                "parencite",
                "textcite",
                "autocite",
                "footcite",
                "nocite",
            ]
        )
    ),
    *(
        MacroSpec(name, "*{")
        for name in [
            "ref",
            "eqref",
            "autoref",
            "cref",
            "Cref",
            "pageref",
            "nameref",
            "vref",
            "label",
        ]
    ),
    MacroSpec("href", "{{"),
    MacroSpec("url", "{"),
    MacroSpec("includegraphics", "*[[{"),
    MacroSpec("vspace", "*{"),
)


@lru_cache(maxsize=1)
def latex_context() -> LatexContextDb:
    """pylatexenc's default commands, with the argument specifications added above."""
    db = get_default_latex_context_db()
    db.add_context_category(
        "rephrase-ls", macros=_EXTRA_MACROS, specials=[SpecialsSpec(FLUSH_MARK)], prepend=True
    )
    return db
