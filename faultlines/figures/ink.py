"""The two inks a lesson figure is drawn with: one per colour scheme of the site.

The site follows the reader's scheme (Material's "default" light page and its "slate" dark one),
so every figure is rendered twice, once per ink, and the page shows the one that matches. An ink
holds the page's background and the colours drawn on it; every colour that may carry text or a
series reaches WCAG AA's 4.5:1 against that background (checked by `contrast` in the tests and
again on the built SVGs), so a label drawn in a series' colour stays readable.

Stdlib only: the tests check the contrast without matplotlib.
"""

from __future__ import annotations

from dataclasses import dataclass

AA_TEXT = 4.5  # WCAG 2.1 AA for normal-size text
AA_GRAPHICS = 3.0  # WCAG 2.1 1.4.11 for lines and markers


@dataclass(frozen=True)
class Ink:
    scheme: str  # "light" or "dark": the suffix of the rendered file
    background: str  # the page's own background, so the figure sits on the page
    text: str  # titles, labels, tick labels
    muted: str  # axes, ticks and secondary text: still AA for text
    grid: str  # decorative only: never carries information
    # Okabe-Ito hues, shaded per scheme to reach 4.5:1: blue, vermillion, green, purple, ochre,
    # violet. Figures also tell series apart by dash and marker, for readers who see no hue.
    series: tuple[str, ...]

    @property
    def blue(self) -> str:
        return self.series[0]

    @property
    def red(self) -> str:
        return self.series[1]

    @property
    def green(self) -> str:
        return self.series[2]

    @property
    def purple(self) -> str:
        return self.series[3]

    @property
    def ochre(self) -> str:
        return self.series[4]

    @property
    def violet(self) -> str:
        return self.series[5]

    def text_colours(self) -> tuple[str, ...]:
        """Every colour of this ink that may carry text or data."""
        return (self.text, self.muted, *self.series)


# Material's light page is white; its slate page is hsl(232, 15%, 14%).
LIGHT = Ink(
    scheme="light",
    background="#ffffff",
    text="#1f1f1f",
    muted="#555555",
    grid="#e0e0e0",
    series=("#0072b2", "#b84e00", "#007a5a", "#a23d80", "#7a5c00", "#5e4fa2"),
)
DARK = Ink(
    scheme="dark",
    background="#1e2029",
    text="#e6e7ea",
    muted="#b0b4bd",
    grid="#3a3e4a",
    series=("#56b4e9", "#f28c4f", "#3cc99a", "#e89ac8", "#e6c229", "#b5a8f0"),
)
INKS = (LIGHT, DARK)


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """WCAG relative luminance of a #rrggbb colour."""
    hex_digits = colour.lstrip("#")
    if len(hex_digits) != 6:
        raise ValueError(f"expected a #rrggbb colour, got {colour!r}")
    r, g, b = (_channel(int(hex_digits[i : i + 2], 16)) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio between two #rrggbb colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)
