"""A riichi-server bot in a few lines: it discards the tile that leaves the fewest tiles
to win (shanten; honours first among equals), declares riichi whenever it may, wins
whenever it can, and calls nothing (the SDK's defaults).

    python examples/simple_bot.py ws://127.0.0.1:8765          # a new table, three server bots
    python examples/simple_bot.py ws://127.0.0.1:8765 INVITE   # join a table
"""

import sys

from client_cli.bot.sdk import Bot, run
from server.rules.shanten import shanten


class SimpleBot(Bot):
    name = "simple"

    def discard(self, view, tiles):
        hand = view["you"]["hand"]  # tile ids 0-135; a tile's kind is id // 4
        melds = len(view["seats"][view["you"]["seat"]]["melds"])

        def after(tile):
            counts = [0] * 34
            for t in hand:
                if t != tile:
                    counts[t // 4] += 1
            return shanten(counts, melds), tile // 4 < 27  # lowest shanten, honours first

        return min(tiles, key=after)

    def riichi(self, view, tiles):
        return self.discard(view, tiles)


if __name__ == "__main__":
    url = sys.argv[1] if len(sys.argv) > 1 else "ws://127.0.0.1:8765"
    code = sys.argv[2] if len(sys.argv) > 2 else None
    result = run(SimpleBot(), url, code=code, server_bots=0 if code else 3)
    print("game", result.game, "scores", result.final and result.final["scores"], "seat", result.seat)
