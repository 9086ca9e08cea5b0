"""Moves from a sensor board: lifts and placements in, legal moves out.

A sensor under each square says only whether a piece stands there, not
which. EBoard follows the sensor events (lift, place) against a Game and
plays a move once the physical board shows the position after exactly one
legal move, using the order of the events where occupancy alone cannot
tell (which piece a capture took, whether king and rook were up together).

Squares here are 0-63: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63;
an occupancy is an int with bit i set for square i.

    >>> from micro960.rules.game import Game
    >>> board = EBoard(Game("chess960", number=518))
    >>> board.lift(12); board.place(28)      # e2 up, e4 down
    >>> board.game.pos.fen()
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'

What it recognises, and how:
- a move is played when the board equals the position after it, and every
  piece it moves or takes was lifted since the last move (so a piece held
  in the hand is not yet a capture); a lift and a placement on the same
  square in between is a piece that hovered, or a bounce, and changes nothing;
- where several moves give one occupancy: a promotion makes the piece
  chosen by promote() (a queen by default); otherwise the move that
  explains the most lifts wins (castling, not the rook move beside a king
  that was up too), then the move to the square placed on last (one piece
  able to take on two squares);
- castling is king takes own rook. Its area is every square between king,
  rook and their destinations; any order of lifting and placing inside it
  works, including the king set down on the way or on its own rook, as long
  as the end is king and rook on their squares. Where they swap squares
  (king f1, rook g1) the board looks the same before and after: castling
  is both squares empty at one moment and both filled again;
- a king or rook step that is also the first half of castling (king f1 to
  g1 with the rook on h1, or any step of either after both were up) is
  "pending": it is played when something else happens (the other side
  lifts a piece) or settle() says time has passed, and becomes castling if
  the other piece follows;
- a board no legal move can lead to is an "error": `wrong` holds the
  squares that differ from the position, and nothing is played;
- while `setup` is true the board is being set up: `wrong` holds the
  squares that differ from the game's position, and no move counts;
- the last moves can be taken back by moving the pieces back, if
  can_take_back() allows it.
"""
from micro960.compat import const
from micro960.rules.movegen import legal_moves, move_buffer
from micro960.rules.notation import san
from micro960.rules.position import (BLACK, CASTLE, EN_PASSANT, FILES, PROMOTE_N, PROMOTE_Q, TO64,
                                     TO120, WHITE, castle_squares)

# Status values.
OK = "ok"            # the board shows the game's position
WAITING = "waiting"  # pieces are in the hand or a move is under way
PENDING = "pending"  # the board shows a move that may still become castling
ERROR = "error"      # no legal move can explain the board
SETUP = "setup"      # the board is being set up

UNDO_DEPTH = 8  # how many moves back a takeback may reach

# The fields of a legal move's info (_move_info, EBoard.infos): the move, the
# occupancy after it, the squares it may touch, the squares it must lift.
_MOVE = const(0)
_AFTER = const(1)
_AREA = const(2)
_LIFT = const(3)


def square64_name(s):
    return FILES[s & 7] + str((s >> 3) + 1)


def parse_square64(text):
    """'e4' -> 28; ValueError for anything else."""
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise ValueError("not a square: %r" % text)
    return FILES.index(text[0]) + 8 * (int(text[1]) - 1)


def squares_text(mask):
    """'e2 e4' for a mask with those two bits."""
    names = []
    s = 0
    while mask:
        if mask & 1:
            names.append(square64_name(s))
        mask >>= 1
        s += 1
    return " ".join(names)


def count_bits(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def occupancy(pos):
    """The occupancy mask of a Position."""
    mask = 0
    board = pos.board
    for s in range(64):
        if board[TO120[s]]:
            mask |= 1 << s
    return mask


def castle_squares64(move, orthodox=False):
    """(king from, rook from, king to, rook to) of a castling move, squares
    0-63; `orthodox` for Chess480's castling (position.castle_squares)."""
    k0 = move & 63
    r0 = (move >> 6) & 63
    side = WHITE if k0 < 8 else BLACK
    k1, r1 = castle_squares(side, TO120[r0], TO120[k0], orthodox)
    return k0, r0, TO64[k1], TO64[r1]


def move_squares(pos, move):
    """The squares a move changes, e.g. for LEDs: from and to; king, rook and
    their destinations for castling; and the taken pawn's square for en passant."""
    flag = move >> 12
    if flag == CASTLE:
        mask = 0
        for s in castle_squares64(move, pos.orthodox_castling):
            mask |= 1 << s
        return mask
    fr = move & 63
    to = (move >> 6) & 63
    mask = (1 << fr) | (1 << to)
    if flag == EN_PASSANT:
        mask |= 1 << (to - 8 if pos.side == WHITE else to + 8)
    return mask


def gesture(pos, move, style=0):
    """Events that make `move` on a sensor board: a list of (square, placed).

    style 0 is the recommended way: a capture lifts the taken piece first,
    castling is king up, rook up, rook down, king down. Style 1 lifts the
    moving piece first; castles king then rook (rook first where the rook
    stands on the king's destination). Style 2 castles rook then king (king
    first where it stands on the rook's destination); style 3 lifts both
    and puts the king down first. En passant takes the pawn last in styles 1-3.
    """
    flag = move >> 12
    fr = move & 63
    to = (move >> 6) & 63
    if flag == CASTLE:
        k0, r0, k1, r1 = castle_squares64(move, pos.orthodox_castling)
        if style == 0 or k1 == r0 and r1 == k0:
            return [(k0, False), (r0, False), (r1, True), (k1, True)]
        if style == 3:
            return [(k0, False), (r0, False), (k1, True), (r1, True)]
        king = [(k0, False), (k1, True)] if k0 != k1 else []
        rook = [(r0, False), (r1, True)] if r0 != r1 else []
        rook_first = style == 2
        if k1 == r0:
            rook_first = True
        elif r1 == k0:
            rook_first = False
        return rook + king if rook_first else king + rook
    if flag == EN_PASSANT:
        victim = to - 8 if pos.side == WHITE else to + 8
        if style == 0:
            return [(victim, False), (fr, False), (to, True)]
        return [(fr, False), (to, True), (victim, False)]
    if pos.board[TO120[to]]:
        if style == 0:
            return [(to, False), (fr, False), (to, True)]
        return [(fr, False), (to, False), (to, True)]
    return [(fr, False), (to, True)]


class EBoard:
    """The physical board against a Game (see the module text).

    Hooks, all optional: on_move(move, san) after a move is played,
    on_undo(move) after a takeback, on_error(text) when the board turns
    unexplained; accept(move) returns None to let a move be played or a
    reason not to; can_take_back() says whether a takeback is allowed now.
    """

    def __init__(self, game, occupied=None):
        """Follow `game`; `occupied` is the board as it stands if it may not
        show the game's position yet (see new_position)."""
        self.game = game
        self.buf = move_buffer()
        self.promotion = PROMOTE_Q
        self.wanted = 0  # a move expected on the board (the engine's): never pending
        self.on_move = None
        self.on_undo = None
        self.on_error = None
        self.accept = None
        self.can_take_back = None
        self.undo_masks = []  # (occupancy before, squares filled) of the last moves
        self.new_position(occupied)

    # ------------------------------------------------------------- input

    def lift(self, sq):
        """A piece left square `sq` (0-63)."""
        self._event(sq, False)

    def place(self, sq):
        """A piece was put on square `sq` (0-63)."""
        self._event(sq, True)

    def snapshot(self, mask):
        """A whole occupancy: the lifts, then the placements it implies, judged
        once at the end: a board seen at one moment passes through no states
        between (all pieces up and put back once read as a move on the way)."""
        mask &= 0xFFFFFFFFFFFFFFFF
        gone = self.physical & ~mask
        new = mask & ~self.physical
        left = count_bits(gone | new)
        for placed, squares in ((False, gone), (True, new)):
            for s in range(64):
                if squares >> s & 1:
                    left -= 1
                    self._event(s, placed, not left)

    def promote(self, letter):
        """Choose the piece for the next promotion: 'q', 'r', 'b' or 'n'."""
        letter = letter.lower()
        if len(letter) != 1 or letter not in "nbrq":
            raise ValueError("promote to q, r, b or n, not %r" % letter)
        self.promotion = PROMOTE_N + "nbrq".index(letter)

    def settle(self):
        """Time has passed with the board still: a pending move is played."""
        if self.status == PENDING:
            self._commit(self.pending)

    def new_position(self, occupied=None):
        """Follow the game's position afresh (a new game, or one loaded);
        `occupied` is the board as it is, None if it shows the position."""
        self._follow()
        self.undo_masks = []
        self.physical = self.base if occupied is None else occupied
        self.setup = self.physical != self.base
        self.status = SETUP if self.setup else OK
        self.wrong = self.physical ^ self.base

    def follow_game(self):
        """The game changed off the board (it ended: resigned, drawn): follow
        it, the pieces as they stand."""
        physical = self.physical
        self._follow()
        self.physical = physical
        if physical != self.base:
            self.status = WAITING

    # ----------------------------------------------------------- the rules

    def _follow(self):
        """The game moved on: note its position and what each legal move looks like."""
        game = self.game
        pos = game.pos
        self.base = base = occupancy(pos)
        self.together = 0  # king-and-rook pairs seen up at one moment
        self._empty_hand()
        # Per legal move: its info (_MOVE, _AFTER, _AREA, _LIFT).
        infos = []
        pairs = []
        self.over = game.result() != "*"
        if not self.over:
            for i in range(legal_moves(pos, self.buf, 0)):
                info = _move_info(pos, base, self.buf[i])
                infos.append(info)
                if info[_MOVE] >> 12 == CASTLE:
                    k0, r0, k1, r1 = castle_squares64(info[_MOVE], pos.orthodox_castling)
                    pairs.append((1 << k0) | (1 << r0))
        if self.undo_masks:
            before, filled = self.undo_masks[-1]
            if before == base:  # castling that swapped king and rook: undone alike
                pairs.append(filled)
        self.infos = infos
        self.pairs = pairs

    def _empty_hand(self):
        """Nothing is up: forget what was lifted (but not a king and rook that
        were up together, which may be castling with the king on its rook)."""
        self.lifted = 0  # squares lifted since the board last showed the position
        self.last_placed = -1
        self.pending = 0
        self.pending_castle = 0
        self.wrong = 0
        self.status = OK

    def _event(self, sq, placed, judge=True):
        if not 0 <= sq < 64:
            self._error("no square %d: squares are 0-63" % sq)
            return
        bit = 1 << sq
        if placed:
            if self.physical & bit:
                self._error("place on %s, but a piece stands there already; ignored"
                            % square64_name(sq))
                return
            self.physical |= bit
            self.last_placed = sq
        else:
            if not self.physical & bit:
                self._error("lift from %s, but it is empty already; ignored" % square64_name(sq))
                return
            self.physical &= ~bit
            self.lifted |= bit
        if self.setup:
            self._check_setup()
            return
        if not judge:  # more of a snapshot to come
            self._note_pairs_up()
            return
        if self.status == PENDING and not self._could_castle(self.pending_castle, True):
            # The pending move is played, then the event counts from there.
            physical = self.physical
            self.physical ^= bit
            played = self._commit(self.pending)
            self.physical = physical
            if played:
                self.lifted = self.base & ~physical  # the pieces up now
                if placed:
                    self.last_placed = sq
        self._note_pairs_up()
        self._explain()

    def _note_pairs_up(self):
        """Remember each king and rook that are up at the same moment."""
        for pair in self.pairs:
            if not self.physical & pair:
                self.together |= pair

    def _check_setup(self):
        self.wrong = self.physical ^ self.base
        if not self.wrong:
            self.setup = False
            self._follow()

    def _explain(self):
        """Explain the sensors' board: the position (OK), a legal move under way
        (WAITING, PENDING) or played, a takeback, or nothing legal (ERROR)."""
        physical = self.physical
        base = self.base
        if physical == base:
            move = self._swap_castle()
            if move:
                self._commit(move)
            elif not self._take_back():
                self._empty_hand()  # nothing moved
            return
        found = []
        lifted = self.lifted | self.together
        for info in self.infos:
            if info[_AFTER] == physical and info[_AFTER] != base and info[_LIFT] & lifted == info[_LIFT]:
                found.append(info[_MOVE])
        found = self._narrow(found)
        if len(found) == 1:
            move = found[0]
            castle = 0 if move == self.wanted else self._castle_begun_by(move)
            if castle:
                self.pending = move
                self.pending_castle = castle
                self.status = PENDING
                self.wrong = 0
                return
            self._commit(move)
            return
        if len(found) > 1:
            pos = self.game.pos
            names = " or ".join(san(pos, m) for m in found)
            self._unexplained("the board could be %s; make it one of them" % names)
            return
        if self._take_back():
            return
        if self._taking_back():
            self.status = WAITING
            self.wrong = 0
            return
        for info in self.infos:
            if _could_become(info, base, physical, False):
                self.status = WAITING
                self.wrong = 0
                return
        if self.over:  # the pieces may be put away
            self.status = WAITING
            return
        missing = self.base & ~self.physical
        extra = self.physical & ~self.base
        fix = []
        if missing:
            fix.append("put a piece back on " + squares_text(missing))
        if extra:
            fix.append("take the piece off " + squares_text(extra))
        self._unexplained("no legal move leads to this board: " + "; ".join(fix))

    def _narrow(self, found):
        """Choose among moves that leave the same occupancy: the promotion
        chosen; the move that explains the most lifts (castling, not the rook
        move beside a lifted king); the move to the square placed on last."""
        if len(found) < 2:
            return found
        if self.wanted in found:
            return [self.wanted]
        promotions = [m for m in found if m >> 12 >= PROMOTE_N]
        if promotions:
            chosen = [m for m in promotions if m >> 12 == self.promotion]
            found = chosen or [m for m in promotions if m >> 12 == PROMOTE_Q] or promotions
        if len(found) > 1:
            most = 0
            best = []
            for info in self.infos:
                if info[_MOVE] in found:
                    n = count_bits(info[_LIFT] & (self.lifted | self.together))
                    if n > most:
                        most = n
                        best = []
                    if n == most:
                        best.append(info[_MOVE])
            found = best
        if len(found) > 1:
            last = [m for m in found if (m >> 6) & 63 == self.last_placed]
            if last:
                found = last
        return found

    def may_become_castling(self, move):
        """Whether the board showing `move` could still be castling under way
        (the board then waits for settle() to decide)."""
        return self._castle_begun_by(move) != 0

    def _castle_begun_by(self, move):
        """The castling move that `move` might be the first half of, or 0:
        the king stepping onto its castling square, the rook onto its own,
        or either moving after both were up (king set down on its rook)."""
        if move >> 12 == CASTLE or self.base & (1 << ((move >> 6) & 63)):
            return 0
        fr = move & 63
        to = (move >> 6) & 63
        for info in self.infos:
            castle = info[_MOVE]
            if castle >> 12 == CASTLE:
                k0, r0, k1, r1 = castle_squares64(castle, self.game.pos.orthodox_castling)
                if (fr == k0 and to == k1) or (fr == r0 and to == r1):
                    return castle
                both = (1 << k0) | (1 << r0)
                if ((fr == k0 or fr == r0) and (self.lifted | self.together) & both == both
                        and _could_become(info, self.base, self.physical, True)):
                    return castle
        return 0

    def _could_castle(self, castle, strict):
        for info in self.infos:
            if info[_MOVE] == castle:
                return _could_become(info, self.base, self.physical, strict)
        return False

    def _swap_castle(self):
        """Castling where king and rook swap squares, if both were up at once
        and nothing else was (all the pieces lifted and put back is no move)."""
        for info in self.infos:
            if (info[_AFTER] == self.base and info[_MOVE] >> 12 == CASTLE
                    and info[_LIFT] & self.together == info[_LIFT] and not self.lifted & ~info[_LIFT]):
                return info[_MOVE]
        return 0

    def _take_back(self):
        """Take the last move back if the board shows the position before it."""
        if not self.undo_masks or not self.game.moves:
            return False
        before, filled = self.undo_masks[-1]
        if self.physical != before or self.lifted & filled != filled:
            return False
        if before == self.base and (self.together & filled != filled or self.lifted & ~filled):
            return False  # a swap of king and rook is undone by those two alone
        if self.can_take_back and not self.can_take_back():
            return False
        move = self.game.moves[-1]
        self.undo_masks.pop()
        self.game.undo()
        self._follow()
        if self.on_undo:
            self.on_undo(move)
        return True

    def _taking_back(self):
        """Is the board on its way back to the position before the last move?"""
        if not self.undo_masks:
            return False
        before, filled = self.undo_masks[-1]
        if self.physical & ~(before | self.base) or self.lifted & filled != filled:
            return False
        return not self.can_take_back or self.can_take_back()

    def _commit(self, move):
        game = self.game
        if self.accept:
            problem = self.accept(move)
            if problem:
                self._unexplained(problem)
                return False
        text = san(game.pos, move)
        before = self.base
        game.push(move)
        self.undo_masks.append((before, _filled(move, game.pos.orthodox_castling)))
        if len(self.undo_masks) > UNDO_DEPTH:
            self.undo_masks.pop(0)
        if move >> 12 >= PROMOTE_N:
            self.promotion = PROMOTE_Q  # a choice counts for one promotion
        self._follow()
        self.physical = self.base
        if self.on_move:
            self.on_move(move, text)
        return True

    def _unexplained(self, text):
        wrong = self.physical ^ self.base
        if self.status == ERROR and wrong == self.wrong:
            return  # said already
        self.status = ERROR
        self.wrong = wrong
        self._error(text)

    def _error(self, text):
        if self.on_error:
            self.on_error(text)


def _filled(move, orthodox):
    """The squares a move's pieces end on (what a takeback lifts again)."""
    if move >> 12 == CASTLE:
        k0, r0, k1, r1 = castle_squares64(move, orthodox)
        return (1 << k1) | (1 << r1)
    return 1 << ((move >> 6) & 63)


def _move_info(pos, base, move):
    """(move, occupancy after it, the squares it may touch, the squares it must lift)."""
    flag = move >> 12
    fr = move & 63
    to = (move >> 6) & 63
    if flag == CASTLE:
        k0, r0, k1, r1 = castle_squares64(move, pos.orthodox_castling)
        after = (base & ~((1 << k0) | (1 << r0))) | (1 << k1) | (1 << r1)
        lo = min(k0, r0, k1, r1)
        hi = max(k0, r0, k1, r1)
        area = ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
        lift = 0
        if k0 != k1:
            lift |= 1 << k0
        if r0 != r1:
            lift |= 1 << r0
        return move, after, area, lift
    after = (base & ~(1 << fr)) | (1 << to)
    area = (1 << fr) | (1 << to)
    lift = 1 << fr
    if base & (1 << to):
        lift |= 1 << to
    if flag == EN_PASSANT:
        victim = 1 << (to - 8 if pos.side == WHITE else to + 8)
        after &= ~victim
        area |= victim
        lift |= victim
    return move, after, area, lift


def _could_become(info, base, physical, strict):
    """Can the board still turn into the position after this move?

    Outside the move's area pieces may only be up (in the hand; with
    `strict`, none may be), and inside it there may not be more pieces than
    before the move.
    """
    area = info[_AREA]
    outside = physical & ~area
    if outside & ~base:
        return False
    if strict and outside != base & ~area:
        return False
    return count_bits(physical & area) <= count_bits(base & area)
