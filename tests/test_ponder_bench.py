"""`micro960 bench --ponder` (host_tools/ponder_bench.py), small: console
games against Stockfish with and without pondering, time in nodes."""
import re

import pytest

from host_tools import ponder_bench



@pytest.mark.tools("stockfish")
def test_pondering_is_measured_against_stockfish():
    said = []
    assert ponder_bench.run(games=2, person_nodes=1600, own_nodes=400, out=said.append) == 0
    found = [re.match(r"(with|without) pondering: (\d+) engine moves, (\d+) hits \(\d+%\), "
                      r"(\d+) nodes a move on average", line) for line in said[1:]]
    (_, moves, hits, nodes), (_, ponder_moves, ponder_hits, ponder_nodes) = [
        tuple(int(x) if x.isdigit() else x for x in f.groups()) for f in found]
    assert hits == 0 and 380 < nodes <= 410 and moves > 20
    # A hit answers from the 1,600 nodes searched on the person's time and 400 more.
    assert ponder_hits > 0 and ponder_nodes > nodes + 1600 * ponder_hits // ponder_moves // 2
