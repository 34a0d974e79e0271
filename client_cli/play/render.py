"""A game view (the shape of `server.game.views.seat_view`, or `public_view` for a
spectator) as Rich text: a seat's pond, melds and score line, the round's information,
the hand, a hand's result and the final standings.  Pure functions, no Textual."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from client_cli.play.tiles import WINDS, kinds_text, tile_text, tiles_text
from client_cli.seat_state import red_fives_of
from protocol.events import EventType, HandResult
from protocol.links import game_link
from protocol.yaku import yaku_name

View = dict[str, Any]
POND_ROW = 6
ROUND_WINDS = {"E": "East", "S": "South", "W": "West", "N": "North"}


def red_fives(view: View) -> bool:
    return red_fives_of(view.get("rules"), view.get("overrides"))


def me(view: View) -> int | None:
    you = view.get("you")
    return None if you is None else you["seat"]


def seat_wind(view: View, seat: int) -> str:
    return WINDS[(seat - view["dealer"]) % 4]


def round_text(view: View) -> str:
    name = str(view.get("round", "E1"))
    return f"{ROUND_WINDS.get(name[:1], name[:1])} {name[1:]}"


def to_play(view: View, seat: int) -> bool:
    """The seat is known to be deciding: its turn after a draw or a call.  (During a call
    window, after a discard or a kong, nobody is: the server tells no seat who may call.)"""
    return view["phase"] == "turn" and view["turn"] == seat and not view.get("final")


def seat_header(view: View, seat: int, clock: str = "", deciding: bool = False, width: int | None = None,
                away: bool = False) -> Text:
    """`East  alice 25000 RIICHI <- 8s`: the arrow and `clock` on the seat to play, or on ours
    when we are `deciding` (a call); `(away)` after the name of a player who is disconnected
    or quit (played for by the server); within `width` cells (the name shortened first),
    never wrapping onto a second line."""
    mark = ""
    if deciding or to_play(view, seat):
        mark = " <- " + (clock or ("turn" if to_play(view, seat) else "call"))
    riichi = " RIICHI" if view["seats"][seat]["riichi"] else ""
    score = f" {view['scores'][seat]}"
    gone = " (away)" if away else ""
    wind = f"{seat_wind(view, seat):<5} "
    name = view["names"][seat][:16]
    if width is not None:
        rest = len(gone) + len(score) + len(riichi) + len(mark)
        if width - len(wind) - rest < min(len(name), 8):  # the name shortened to 8 first, then the wind
            wind = wind[0] + " "
        room = width - len(wind) - rest
        if len(name) > room:
            name = name[:room - 1] + "~" if room >= 3 else name[:max(room, 1)]
    out = Text()
    out.append(wind, style="bold yellow" if seat == view["dealer"] else "bold")
    out.append(name, style="bold underline" if seat == me(view) else "bold")
    if gone:
        out.append(gone, style="bold red")
    out.append(score)
    if riichi:
        out.append(riichi, style="bold white on dark_red")
    if mark:
        out.append(mark, style="bold reverse")
    if width is not None:
        out.truncate(width, overflow="ellipsis")
    out.no_wrap = True
    return out


def pond_text(view: View, seat: int, unicode: bool = False, row: int = POND_ROW) -> Text:
    """The seat's discards, `row` a line: the riichi discard reversed and marked `*`, called
    tiles struck through and dim, the last discard of the table underlined."""
    sp = view["seats"][seat]
    red = red_fives(view)
    claimed = set(sp["claimed"])
    last = view.get("last_discard")
    discards = sp["discards"]
    out = Text()
    for i, tile in enumerate(discards):
        if i and i % row == 0:
            out.append("\n")
        elif i:
            out.append(" ")
        style = ""
        if i == sp["riichi_index"]:
            style = "reverse"
        if i in claimed:
            style += " dim strike"
        if i == len(discards) - 1 and tile == last and view["turn"] == seat and view["phase"] != "turn":
            style += " underline"
        out.append_text(tile_text(tile, red, unicode, style.strip()))
        if i == sp["riichi_index"]:
            out.append("*", style="bold")
    if not discards:
        out.append("(no discards)", style="dim")
    return out


def meld_text(view: View, meld: dict[str, Any], unicode: bool = False) -> Text:
    """`pon 5p 5p 5p <W` (the called tile underlined, from whom)."""
    red = red_fives(view)
    out = Text(f"{meld['kind']} ", style="italic")
    for i, tile in enumerate(meld["tiles"]):
        if i:
            out.append(" ")
        out.append_text(tile_text(tile, red, unicode, "underline" if tile == meld.get("called") else ""))
    if meld.get("from") is not None:
        out.append(f" <{seat_wind(view, meld['from'])[0]}", style="dim")
    return out


def melds_text(view: View, seat: int, unicode: bool = False) -> Text:
    melds = view["seats"][seat]["melds"]
    out = Text()
    for i, meld in enumerate(melds):
        if i:
            out.append("  ")
        out.append_text(meld_text(view, meld, unicode))
    return out


def seat_panel(view: View, seat: int, unicode: bool = False, clock: str = "", compact: bool = False,
               deciding: bool = False, width: int | None = None, away: bool = False) -> Text:
    """A seat's header (see seat_header), pond and melds; `compact`: the melds on the
    header's line and the pond in rows of 20 (for small terminals)."""
    out = seat_header(view, seat, clock, deciding, width, away)
    out.no_wrap = False
    melds = melds_text(view, seat, unicode)
    if compact and melds.plain:
        out.append("  ")
        out.append_text(melds)
    out.append("\n")
    out.append_text(pond_text(view, seat, unicode, row=20 if compact else POND_ROW))
    if melds.plain and not compact:
        out.append("\n")
        out.append_text(melds)
    return out


def info_line(view: View, unicode: bool = False, clock: str = "") -> Text:
    """The round's information on one line (for small terminals): `dora 1m (ind. 9m)` names
    the dora, then the indicators that give them."""
    out = Text(f"{round_text(view)}", style="bold")
    out.append(f"  honba {view['honba']}  sticks {view['sticks']}  dora ")
    out.append_text(kinds_text([dora_kind(t) for t in view["dora_indicators"]], unicode))
    out.append(" (ind. ")
    out.append_text(tiles_text(view["dora_indicators"], red_fives(view), unicode))
    out.append(f")  {view['tiles_left']} left")
    if view["phase"] == "turn" and not view.get("final"):
        turn = view["turn"]
        out.append(f"  turn: {'you' if turn == me(view) else view['names'][turn][:14]}")
        if clock:
            out.append(f" {clock}", style="bold")
    elif view["phase"] in ("calls", "chankan") and not view.get("final"):
        if clock:  # ours: we are offered a call
            out.append(f"  your call: {clock}", style="bold")
    return out


def dora_kind(indicator: int) -> int:
    """The dora a tile (id) indicates: the next of its suit, wind or dragon, round the end."""
    kind = indicator >> 2
    if kind < 27:
        return kind - kind % 9 + (kind % 9 + 1) % 9
    if kind < 31:
        return 27 + (kind - 27 + 1) % 4
    return 31 + (kind - 31 + 1) % 3


def info_text(view: View, unicode: bool = False, clock: str = "", width: int | None = None) -> Text:
    """Round, counters, sticks, dora indicators, tiles left, whose turn.  The dora line is
    `dora indicators 4m (dora 5m)`, or, where that is wider than `width` (after a kong),
    the compact line's `dora 5m 3p (ind. 4m 2p)`; where even that is wider (three kongs or
    more at 100 columns) the dora and the indicators take a line each, the indicators'
    line saying the tiles left, so the pane keeps its number of lines."""
    out = Text()
    out.append(f"{round_text(view)}", style="bold")
    out.append(f"   honba {view['honba']}   sticks {view['sticks']}\n")
    indicators = tiles_text(view["dora_indicators"], red_fives(view), unicode)
    dora = kinds_text([dora_kind(t) for t in view["dora_indicators"]], unicode)
    left = view["tiles_left"]
    tiles_left = f"\ntiles left {left}\n"
    if width is None or len("dora indicators  (dora )") + indicators.cell_len + dora.cell_len <= width:
        dora_line = Text.assemble("dora indicators ", indicators, " (dora ", dora, ")")
    elif len("dora  (ind. )") + indicators.cell_len + dora.cell_len <= width:
        dora_line = Text.assemble("dora ", dora, " (ind. ", indicators, ")")
    else:  # the tiles left share the indicators' line
        dora_line, tiles_left = Text.assemble("dora ", dora, "\nind. ", indicators), f"  {left} left\n"
    out.append_text(dora_line)
    out.append(tiles_left)
    if view.get("final"):
        out.append("the game is over", style="bold")
    elif view["phase"] == "turn":
        turn = view["turn"]
        who = "you" if turn == me(view) else view["names"][turn]
        out.append(f"turn: {who} ({seat_wind(view, turn)})")
        if clock:  # on a line of its own, so that a narrow pane does not wrap it
            out.append(f"\n{clock}", style="bold")
    elif view["phase"] in ("calls", "chankan"):
        turn = view["turn"]
        who = "you" if turn == me(view) else view["names"][turn]
        if view["phase"] == "calls" and view.get("last_discard") is not None:
            out.append(f"{who} ({seat_wind(view, turn)})\ndiscarded ")  # two lines: a narrow pane wraps one
            out.append_text(tile_text(view["last_discard"], red_fives(view), unicode))
        else:
            out.append(f"{who} ({seat_wind(view, turn)})\ndeclared a kong")
        if clock:  # ours: we are offered a call
            out.append(f"\nyour call: {clock}", style="bold")
    return out


def hand_order(view: View) -> list[int]:
    """Our hand sorted, with the drawn tile last (shown apart)."""
    you = view["you"]
    hand = sorted(you["hand"])
    drawn = you.get("drawn")
    if drawn is not None and drawn in hand:
        hand.remove(drawn)
        hand.append(drawn)
    return hand


def waits_text(view: View, unicode: bool = False) -> Text:
    you = view["you"]
    if not you["waits"]:
        return Text("waits: not tenpai", style="dim")
    out = Text("waits: ")
    out.append_text(kinds_text(list(you["waits"]), unicode))
    if you["furiten"]:
        out.append("   FURITEN (no ron)", style="bold red")
    return out


def _name(names: list[str], seat: int | None) -> str:
    return "-" if seat is None else names[seat]


def result_text(result: dict[str, Any], names: list[str], red: bool = False, unicode: bool = False) -> Text:
    """One hand's result: each win's yaku, han, fu and points, or the draw; then everyone's change."""
    out = Text()
    if result["type"] == HandResult.WIN:
        for w in result["wins"]:
            how = "tsumo" if w["tsumo"] else f"ron off {_name(names, w['from'])}"
            out.append(f"{names[w['seat']]} wins by {how} on ", style="bold")
            out.append_text(tile_text(w["tile"], red, unicode))
            out.append("\n  hand ")
            out.append_text(tiles_text(w["hand"], red, unicode))
            for meld in w.get("melds", []):
                out.append(f"  {meld['kind']} ")
                out.append_text(tiles_text(meld["tiles"], red, unicode))
            out.append("\n")
            for name, han in w["yaku"]:
                out.append(f"  {yaku_name(name):<38} {han:>2} han\n")
            if w.get("dora"):
                out.append(f"  {'Dora':<38} {w['dora']:>2} han\n")
            limit = f"  {w['limit']}" if w.get("limit") else ""
            fu = "" if w.get("yakuman") else f" {w['fu']} fu"
            out.append(f"  {w['han']} han{fu}{limit}: {w['points']} points", style="bold")
            if w.get("sticks"):
                out.append(f" + {w['sticks']} riichi stick(s)")
            out.append("\n")
        if result.get("ura_indicators"):
            out.append("ura dora indicators ")
            out.append_text(tiles_text(result["ura_indicators"], red, unicode))
            out.append("\n")
    elif result["type"] == HandResult.EXHAUSTIVE_DRAW:
        tenpai = ", ".join(names[s] for s in result["tenpai"]) or "nobody"
        out.append(f"Exhaustive draw. Tenpai: {tenpai}\n", style="bold")
        for seat, hand in sorted(result.get("hands", {}).items()):
            out.append(f"  {names[int(seat)]}: ")
            out.append_text(tiles_text(hand, red, unicode))
            out.append("\n")
        if result.get("nagashi"):
            out.append(f"  nagashi mangan: {', '.join(names[s] for s in result['nagashi'])}\n")
    else:
        out.append(f"Abortive draw: {str(result.get('reason', '')).replace('_', ' ')}\n", style="bold")
    out.append("\n")
    for seat, delta in enumerate(result["deltas"]):
        out.append(f"  {names[seat]:<16} {delta:>+7}  ->  {result['scores'][seat]:>6}\n",
                   style="green" if delta > 0 else "red" if delta < 0 else "")
    return out


def standings_text(final: dict[str, Any], names: list[str]) -> Text:
    """The final standings: place, name, score and result (uma included)."""
    out = Text("Final standings\n\n", style="bold")
    order = sorted(range(4), key=lambda s: final["places"][s])
    for place, seat in enumerate(order, 1):
        out.append(f"  {place}. {names[seat]:<16} {final['scores'][seat]:>7}  {final['results'][seat]:>+7.1f}\n")
    return out


def replay_line(server_url: str, game: int) -> Text:
    """The line that ends a game's standings: where its replay is, in a browser."""
    return Text(f"Replay: {game_link(server_url, game)}")


def final_text(final: dict[str, Any], names: list[str], server_url: str, game: int | None) -> Text:
    """The final standings, then the link to the game's replay (when the game's id is known)."""
    out = standings_text(final, names)
    if game is not None:
        out.append("\n").append_text(replay_line(server_url, game))
    return out


def event_line(event: dict[str, Any], names: list[str], red: bool = False) -> Text | None:
    """One line of the table's log for an event (draws and call windows say nothing)."""
    kind = event["type"]
    if kind == EventType.DISCARD:
        out = Text(f"{names[event['seat']][:14]}: ")
        if event["riichi"]:
            out.append("RIICHI ", style="bold red")
        out.append_text(tile_text(event["tile"], red))
        return out
    if kind == EventType.CALL:
        out = Text(f"{names[event['seat']][:14]} {event['meld'].upper()} ", style="bold")
        out.append_text(tiles_text(event["tiles"], red))
        return out
    if kind == EventType.DORA:
        return Text("new dora indicator ").append_text(tile_text(event["indicator"], red))
    if kind == EventType.HAND_START:
        return Text(f"{ROUND_WINDS.get(event['round'][:1], '')} {event['round'][1:]} begins,"
                    f" honba {event['honba']}", style="bold")
    if kind == EventType.HAND_END:
        result = event["result"]
        if result["type"] == HandResult.WIN:
            return Text("; ".join(f"{names[w['seat']][:14]} wins by {'tsumo' if w['tsumo'] else 'ron'}"
                                  f" ({w['points']})" for w in result["wins"]), style="bold green")
        return Text(str(result.get("reason", "exhaustive draw")).replace("_", " "), style="bold")
    return None
