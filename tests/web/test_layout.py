"""The table's layout at a phone held upright (390x844), a laptop (1366x768) and a desktop
(1920x1080), well into a hand: nothing needs sideways scrolling, the table's parts (the four
seats, the middle, our hand, the buttons) do not overlap, every tile lies inside its part, and
the table fills the window (no empty band below it: the hand and the buttons at the bottom)."""

from __future__ import annotations


from tests.web.browser import DESKTOP, LAPTOP, PHONE, WebPlayer, create_table

# The boxes of the table's parts, the tiles sticking out of their part, and the window.
BOXES = """
const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const parts = {};
document.querySelectorAll('#board .seat').forEach((s) => { parts['seat ' + s.dataset.pos] = box(s); });
for (const id of ['center', 'hand', 'actions']) parts[id] = box(document.getElementById(id));
const out = [];
for (const sel of ['#board .seat', '#center', '#hand']) {
  document.querySelectorAll(sel).forEach((part) => {
    const [l, t, r, b] = box(part);
    part.querySelectorAll('.tile').forEach((tile) => {
      const [tl, tt, tr, tb] = box(tile);
      if (tr === tl) return; // not shown at this size (a phone hides the others' concealed tiles)
      if (tl < l - 1 || tt < t - 1 || tr > r + 1 || tb > b + 1) out.push(sel + ' ' + (tile.dataset.face || 'back'));
    });
  });
}
const screen = box(document.getElementById('table'));
return {parts, out, screen, width: [document.documentElement.scrollWidth, innerWidth], height: innerHeight};
"""


def overlapping(parts: dict[str, list[float]]) -> list[tuple[str, str]]:
    names = sorted(parts)
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            (al, at, ar, ab), (bl, bt, br, bb) = parts[a], parts[b]
            if min(ar, br) - max(al, bl) > 1 and min(ab, bb) - max(at, bt) > 1:
                out.append((a, b))
    return out


def test_the_table_fits_a_phone_a_laptop_and_a_desktop_without_overlaps_or_an_empty_band(server, browsers):
    browser = browsers(LAPTOP)
    create_table(browser, server.port, "alice", strategy="random")
    player = WebPlayer(browser)
    player.until(lambda s: s["screen"] == "waiting")
    player.press("#ready")
    player.play(lambda s, p: p.discards >= 8 and s["mode"] == "discard")  # ponds with rows in them
    for width, height in (PHONE, LAPTOP, DESKTOP):
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 700})
        seen = browser.execute_script(BOXES)  # reading the boxes lays the page out at the new size
        size = f"{width}x{height}"
        assert seen["width"][0] <= seen["width"][1], f"{size}: the page scrolls sideways"
        assert overlapping(seen["parts"]) == [], f"{size}: parts overlap"
        assert seen["out"] == [], f"{size}: tiles outside their part"
        left, top, right, bottom = seen["screen"]
        assert bottom >= seen["height"] - 1, f"{size}: an empty band below the table ({bottom} of {height})"
        assert seen["parts"]["actions"][3] >= seen["height"] - 90, f"{size}: the buttons are not at the bottom"
