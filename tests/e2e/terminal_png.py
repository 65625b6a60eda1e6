"""Draw a terminal screen, as ``tmux capture-pane -e -p`` prints it, into a PNG.

Understands the SGR sequences tmux emits: reset, bold, reverse, the 16 colours, 256-colour and
true-colour foreground and background. Everything else (cursor moves, OSC) is skipped.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, PngImagePlugin

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FOREGROUND = (220, 223, 228)
BACKGROUND = (30, 33, 40)
#: The 16 ANSI colours (a dark theme's).
ANSI = [
    (40, 44, 52), (224, 108, 117), (152, 195, 121), (229, 192, 123),
    (97, 175, 239), (198, 120, 221), (86, 182, 194), (171, 178, 191),
    (92, 99, 112), (240, 128, 135), (172, 215, 141), (249, 212, 143),
    (117, 195, 255), (218, 140, 241), (106, 202, 214), (230, 234, 240),
]  # fmt: skip
_SEQUENCE = re.compile(r"\x1b\[([0-9;:]*)([A-Za-z])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.")


def xterm_256(n: int) -> tuple[int, int, int]:
    """The RGB of xterm's colour ``n``."""
    if n < 16:
        return ANSI[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    level = 8 + 10 * (n - 232)
    return (level, level, level)


@dataclass(frozen=True)
class Style:
    fg: tuple[int, int, int] | None = None
    bg: tuple[int, int, int] | None = None
    bold: bool = False
    reverse: bool = False


def _apply_sgr(style: Style, params: str) -> Style:
    codes = [int(c) if c else 0 for c in re.split("[;:]", params)] if params else [0]
    i = 0
    while i < len(codes):
        c = codes[i]
        if c == 0:
            style = Style()
        elif c == 1:
            style = replace(style, bold=True)
        elif c == 22:
            style = replace(style, bold=False)
        elif c == 7:
            style = replace(style, reverse=True)
        elif c == 27:
            style = replace(style, reverse=False)
        elif 30 <= c <= 37 or 90 <= c <= 97:
            style = replace(style, fg=ANSI[c - 30 if c < 90 else c - 82])
        elif 40 <= c <= 47 or 100 <= c <= 107:
            style = replace(style, bg=ANSI[c - 40 if c < 100 else c - 92])
        elif c == 39:
            style = replace(style, fg=None)
        elif c == 49:
            style = replace(style, bg=None)
        elif c in (38, 48) and i + 1 < len(codes):
            if codes[i + 1] == 5 and i + 2 < len(codes):
                color = xterm_256(codes[i + 2])
                i += 2
            elif codes[i + 1] == 2 and i + 4 < len(codes):
                color = (codes[i + 2], codes[i + 3], codes[i + 4])
                i += 4
            else:
                break
            style = replace(style, fg=color) if c == 38 else replace(style, bg=color)
        i += 1
    return style


def parse(screen: str) -> list[list[tuple[str, Style]]]:
    """The screen's cells: per line, (character, style) pairs."""
    rows: list[list[tuple[str, Style]]] = []
    style = Style()
    for line in screen.split("\n"):
        cells: list[tuple[str, Style]] = []
        pos = 0
        for match in _SEQUENCE.finditer(line):
            cells.extend((ch, style) for ch in line[pos : match.start()])
            if match.group(2) == "m":
                style = _apply_sgr(style, match.group(1))
            pos = match.end()
        cells.extend((ch, style) for ch in line[pos:])
        rows.append(cells)
    while rows and not rows[-1]:
        rows.pop()
    return rows


def render(screen: str, columns: int, path: Path, text: dict[str, str] | None = None) -> None:
    """Draw ``screen`` (``columns`` wide) into the PNG ``path``; ``text`` goes in tEXt chunks."""
    regular = ImageFont.truetype(str(FONT_DIR / "DejaVuSansMono.ttf"), 16)
    bold = ImageFont.truetype(str(FONT_DIR / "DejaVuSansMono-Bold.ttf"), 16)
    cell_w = round(regular.getlength("M"))
    ascent, descent = regular.getmetrics()
    cell_h = ascent + descent + 2
    rows = parse(screen)
    # The program's own background (Neovim's Normal) where it set one: tmux does not repeat it
    # in the blank cells at the end of a line, which take the terminal's default.
    backgrounds = Counter(style.bg for cells in rows for _, style in cells if style.bg)
    background = backgrounds.most_common(1)[0][0] if backgrounds else BACKGROUND
    pad = 12
    image = Image.new("RGB", (columns * cell_w + 2 * pad, len(rows) * cell_h + 2 * pad), background)
    draw = ImageDraw.Draw(image)
    for y, cells in enumerate(rows):
        x = 0
        for ch, style in cells:
            width = 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
            if x + width > columns:
                break
            fg, bg = style.fg or FOREGROUND, style.bg or background
            if style.reverse:
                fg, bg = bg, fg
            left, top = pad + x * cell_w, pad + y * cell_h
            if bg != background:
                draw.rectangle((left, top, left + width * cell_w - 1, top + cell_h - 1), fill=bg)
            if not ch.isspace():
                draw.text((left, top + 1), ch, font=bold if style.bold else regular, fill=fg)
            x += width
    info = PngImagePlugin.PngInfo()
    for key, value in (text or {}).items():
        info.add_itxt(key, value)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, pnginfo=info, optimize=True)
