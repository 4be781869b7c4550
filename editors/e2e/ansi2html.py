"""Renders a tmux `capture-pane -e` screen (SGR colours) as an HTML page."""
import html
import re
import sys

PALETTE = ["#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
           "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"]


def xterm(n):
    if n < 16:
        return PALETTE[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    v = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (v, v, v)


def main():
    fg, bg, bold, under, rev = None, None, False, False, False
    out = []
    for line in sys.stdin.read().rstrip("\n").split("\n"):
        parts = re.split(r"(\x1b\[[0-9;:]*m)", line)
        row = []
        for p in parts:
            if p.startswith("\x1b["):
                codes = [c for c in re.split(r"[;:]", p[2:-1])] or ["0"]
                i = 0
                while i < len(codes):
                    c = int(codes[i] or 0)
                    if c == 0:
                        fg, bg, bold, under, rev = None, None, False, False, False
                    elif c == 1:
                        bold = True
                    elif c == 4:
                        under = True
                    elif c == 7:
                        rev = True
                    elif c == 22:
                        bold = False
                    elif c == 24:
                        under = False
                    elif c == 27:
                        rev = False
                    elif 30 <= c <= 37:
                        fg = PALETTE[c - 30]
                    elif 90 <= c <= 97:
                        fg = PALETTE[c - 90 + 8]
                    elif 40 <= c <= 47:
                        bg = PALETTE[c - 40]
                    elif 100 <= c <= 107:
                        bg = PALETTE[c - 100 + 8]
                    elif c == 39:
                        fg = None
                    elif c == 49:
                        bg = None
                    elif c in (38, 48):
                        if codes[i + 1] == "5":
                            col, i = xterm(int(codes[i + 2])), i + 2
                        else:
                            col, i = "#%02x%02x%02x" % tuple(int(x) for x in codes[i + 2:i + 5]), i + 4
                        if c == 38:
                            fg = col
                        else:
                            bg = col
                    i += 1
            elif p:
                f, b = (bg or "#1e1e1e", fg or "#d4d4d4") if rev else (fg, bg)
                style = ""
                if f:
                    style += "color:%s;" % f
                if b:
                    style += "background:%s;" % b
                if bold:
                    style += "font-weight:bold;"
                if under:
                    style += "text-decoration:underline;"
                row.append('<span style="%s">%s</span>' % (style, html.escape(p)) if style else html.escape(p))
        out.append("".join(row))
    print("<!doctype html><meta charset=utf-8><body style='margin:0;background:#1e1e1e'>"
          "<pre style='margin:8px;font:15px/1.2 DejaVu Sans Mono,monospace;color:#d4d4d4'>"
          + "\n".join(out) + "</pre>")


main()
