"""Colour names as nam takes them (Tk's, that is X11's) turned into colours a
browser draws.

CSS's named colours are X11's with a few differences; what CSS lacks is
handled here: names written with spaces or in mixed case (``navy blue``,
``DarkGreen``), ``grayNN``/``greyNN`` (NN percent), the numbered shades
``name1``..``name4`` (X11 darkens its base colour by about 100, 93, 80 and
55 percent) and ``#rgb``/``#rrggbb``.
"""

from __future__ import annotations

import re

# CSS Color Module Level 4 named colours (these names are facts of the standard).
CSS_NAMES = frozenset("""
aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown
burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan
darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred
darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue
dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray
green greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen
lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink
lightsalmon lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen
linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue
mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy
oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip
peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown
seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen steelblue tan teal
thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen
""".split())

# X11 names CSS does not have, and X11 names whose CSS colour differs.
_X11_ONLY = {
    "lightgoldenrod": "#eedd82", "navyblue": "#000080", "violetred": "#d02090", "lightslateblue": "#8470ff",
    "gray": "#bebebe", "grey": "#bebebe", "green": "#00ff00", "maroon": "#b03060", "purple": "#a020f0",
}

_SHADE = {"1": 1.0, "2": 0.932, "3": 0.804, "4": 0.545}

# Base values for the numbered shades of names whose shade 1 is not the CSS colour (X11's brightest shade
# of these is the full-intensity one).
_SHADE_BASE = {
    "green": "#00ff00", "blue": "#0000ff", "red": "#ff0000", "yellow": "#ffff00", "cyan": "#00ffff",
    "magenta": "#ff00ff", "orange": "#ffa500", "purple": "#9b30ff", "maroon": "#ff34b3",
}

def _hex(rgb: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % rgb


def _parse_hex(h: str) -> tuple[int, int, int]:
    h = h.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def color_or_none(name: str) -> str | None:
    """A CSS colour for a Tk colour name, or None when it is not one."""
    if name is None:
        return None
    raw = name.strip()
    if re.fullmatch(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})", raw):
        return raw.lower()
    key = re.sub(r"\s+", "", raw).lower()
    if not key:
        return None
    if key in _X11_ONLY:
        return _X11_ONLY[key]
    if key in CSS_NAMES:
        return key
    m = re.fullmatch(r"gr[ae]y(\d{1,3})", key)
    if m and int(m.group(1)) <= 100:
        v = round(int(m.group(1)) * 255 / 100)
        return _hex((v, v, v))
    m = re.fullmatch(r"([a-z]+)([1-4])", key)
    if m and (m.group(1) in CSS_NAMES or m.group(1) in _SHADE_BASE or m.group(1) in _X11_ONLY):
        base = _SHADE_BASE.get(m.group(1)) or _X11_ONLY.get(m.group(1))
        if base is None:
            # darken the CSS colour in the page (CSS can mix): color-mix with black
            f = _SHADE[m.group(2)]
            return m.group(1) if f == 1.0 else f"color-mix(in srgb, {m.group(1)} {round(f * 100)}%, black)"
        f = _SHADE[m.group(2)]
        r, g, b = _parse_hex(base)
        return _hex((round(r * f), round(g * f), round(b * f)))
    return None
