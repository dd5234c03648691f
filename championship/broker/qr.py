"""A QR code as inline SVG (`segno`): the live page's address on a printed table card, so a
player's phone opens it without typing. Here because segno's home is the broker's edge,
where the credentials' QR codes are made too."""

from __future__ import annotations


def qr_svg(text: str, scale: int = 4) -> str:
    """`text` as a QR code, an `<svg>` element with no XML declaration (to inline in HTML)."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=scale, border=2,
                                     xmldecl=False, svgns=True)
    return out.getvalue().decode("utf-8")
