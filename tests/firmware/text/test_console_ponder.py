"""The console ponders (pondering.py): while the person thinks, the engine
searches its answer to the reply it expects. A hit is taken at once and the
search goes on; a miss is handled as any line; beginners' levels and
`ponder off` do without. The input is a script of lines, each coming after
so many polls of the search (it polls every 16 nodes).
"""
from micro960.engine.search import Limits
from game_text import uci_moves
from test_console import console

WHITE, BLACK = 8, 16


class Typed:
    """The person at the keyboard: each (polls, line) comes after that many
    polls; readline() gives the next line at once."""

    def __init__(self, *script):
        self.script = list(script)
        self.polls = 0

    def poll(self):
        if not self.script:
            return None
        self.polls += 1
        if self.polls <= self.script[0][0]:
            return None
        self.polls = 0
        return self.script.pop(0)[1]

    def readline(self):
        return self.script.pop(0)[1] if self.script else None


def against_the_engine():
    """The engine plays Black at full strength, 3,000 nodes a move (some 180
    polls); White has played e4."""
    c, said = console("chess960", 518, engine_side=BLACK)
    c.limits = Limits(nodes=3000)
    c.handle("e4")
    assert c.expected and len(c.game.moves) == 2
    return c, said


def test_a_hit_is_played_at_once_and_the_engine_answers_on_from_its_search():
    c, said = against_the_engine()
    expected = c.expected[2]
    from micro960.rules.notation import san
    text = san(c.game.pos, expected)
    c.input = Typed((20, text), (300, "quit"))  # 3,000 nodes after the hit; then quit
    answered = []  # the nodes of the search each answer came from
    answer = c.answer
    c.answer = lambda move: answered.append(c.engine.nodes) or answer(move)
    before = len(said)
    line = c.next_line()  # the hit; then the next ponder, and quit
    assert line == "quit"
    assert 3300 < answered[0] < 3500  # some 320 nodes before the hit, then 3,000
    assert c.game.moves[2] == expected and len(c.game.moves) == 4
    assert said[before] == "2. " + text, said[before:before + 3]  # taken at once
    assert any(line.startswith("micro960 plays 2...") for line in said[before:])


def test_a_miss_is_taken_back_and_handled_as_always():
    c, said = against_the_engine()
    fen = c.game.pos.fen()
    legal = [m for m in c.game.legal_moves() if m != c.expected[2]]
    from micro960.rules.notation import san
    other = san(c.game.pos, legal[0])
    c.input = Typed((30, other))
    line = c.next_line()
    assert line == other and c.game.pos.fen() == fen and len(c.game.moves) == 2
    c.handle(line)
    assert len(c.game.moves) == 4  # played, and the engine answered


def test_no_pondering_for_beginners_or_when_turned_off_and_a_free_hint():
    c, said = against_the_engine()
    c.input = Typed()
    c.handle("hint")
    assert said[-1].endswith("(micro960 expects it)")
    for line in ("level 5", "level 20"):
        c.handle(line)
    c.handle("ponder off")
    assert said[-1] == "The engine does not think on your time."
    c.input = Typed((0, "Nf3"))
    assert c.next_line() == "Nf3" and c.input.polls == 0  # read, not polled: no search
    c.handle("ponder on")
    c.handle("level 9")
    assert c.next_line() is None and c.input.polls == 0
    c.handle("ponder")
    assert said[-1] == "The engine thinks on your time (at level 10 and up)."
    c.handle("ponder maybe")
    assert said[-1].startswith("error: ponder takes on or off")


def test_on_a_clock_a_hit_stops_the_persons_clock_when_it_comes():
    c, said = against_the_engine()
    time = [1000]
    c.now = lambda: time[0]
    c.handle("clock 5")  # White to move: its clock runs
    from micro960.rules.notation import san
    text = san(c.game.pos, c.expected[2])
    time[0] += 7000  # White thinks 7 s, while the engine ponders
    c.input = Typed((10, text), (300, "quit"))
    assert c.next_line() == "quit"
    clock = c.game.clock
    assert clock.marks[0] == 293000 and len(clock.marks) >= 2  # White's 7 s; then Black moved


class Ended:
    """Input that has ended (a pipe closed, a file read to its end)."""
    ended = True

    def poll(self):
        return None

    def readline(self):
        return None


def test_pondering_stops_when_the_input_ends():
    """It once pondered on to its full depth with nobody left to type:
    `micro960 play < moves.txt` did not end."""
    c, said = against_the_engine()
    c.input = Ended()
    assert c.next_line() is None and c.engine.nodes < 100
    assert len(c.game.moves) == 2  # the expected move taken back


def test_a_hit_draws_the_board_after_the_persons_move():
    """It once went from the person's move straight to the engine's answer."""
    c, said = against_the_engine()
    from micro960.rules.notation import san
    text = san(c.game.pos, c.expected[2])
    c.input = Typed((20, text), (300, "quit"))
    before = len(said)
    c.next_line()
    after = said[before:]
    board = after.index("Last move: 2. " + text)  # drawn as after any move
    assert after[board + 1] == "Black to move"
    from micro960.text.console import board_lines
    from micro960.rules.game import Game
    position = Game("chess960", number=518)  # the position after the person's move
    for move in c.game.moves[:3]:
        position.push(move)
    assert after[board - 11:board] == board_lines(position)[:11], after[board - 11:board]
    assert after.index("2. " + text) < board
    assert any(line.startswith("micro960 plays 2...") for line in after[board:])


def survives(function, *args):
    """function(*args), with a Ctrl-C that gets out of it failing the test
    (rather than ending the test run, as it would)."""
    try:
        return function(*args)
    except KeyboardInterrupt:
        raise AssertionError("Ctrl-C got out: the program would end")


class Interrupted(Typed):
    """Ctrl-C arrives (KeyboardInterrupt, as the signal raises it in the
    search) after the script's lines, at the poll `at`."""

    def __init__(self, at, *script):
        Typed.__init__(self, *script)
        self.at = at
        self.count = 0

    def poll(self):
        self.count += 1
        if self.count == self.at:
            raise KeyboardInterrupt
        return Typed.poll(self)


def test_ctrl_c_while_pondering_stops_the_search_not_the_program():
    c, said = against_the_engine()
    fen = c.game.pos.fen()
    c.input = Interrupted(30, (10 ** 6, "Nf3"))  # nothing typed before Ctrl-C; then Nf3
    assert survives(c.next_line) == "Nf3"  # the line read after it, as usual
    assert "Stopped thinking on your time (Ctrl-C again at the prompt quits)." in said
    assert c.game.pos.fen() == fen and len(c.game.moves) == 2  # the expected move taken back


def test_ctrl_c_after_a_hit_plays_the_best_move_so_far():
    c, said = against_the_engine()
    from micro960.rules.notation import san
    text = san(c.game.pos, c.expected[2])
    c.input = Interrupted(100, (20, text), (300, "quit"))
    survives(c.next_line)
    assert "Stopped: the engine plays the best move it has found." in said
    assert len(c.game.moves) == 4 and said.count("2. " + text) == 1
    fen = c.game.pos.fen()
    c.game.rebuild()  # the search's moves were all taken back
    assert c.game.pos.fen() == fen and c.game.result() == "*"
    assert any(line.startswith("micro960 plays 2...") for line in said)


def test_a_hit_is_saved_before_the_engine_thinks_on():
    """A power cut while the engine answered a hit once lost the person's
    move: it was saved only with the engine's answer (issue 40)."""
    from micro960.device.storage import GameStore
    from power_cut import remove_folder, scratch_folder
    folder = scratch_folder("hit")
    try:
        c, said = against_the_engine()
        c.resume(GameStore(folder))  # nothing saved yet: a fresh store
        c.keep()
        from micro960.rules.notation import san
        text = san(c.game.pos, c.expected[2])
        saved = []  # the moves in game.txt when the engine thinks on after the hit
        hit = c.engine.ponderhit
        c.engine.ponderhit = lambda: saved.append(uci_moves(GameStore(folder).load())) or hit()
        c.input = Typed((20, text), (300, "quit"))
        c.next_line()
        assert len(saved) == 1 and saved[0] == uci_moves(c.game)[:3], (saved, said[-3:])
    finally:
        remove_folder(folder)
