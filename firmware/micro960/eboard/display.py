"""What a sensor board's small display shows: the position, the last move,
whose turn it is, the result, and the evaluation when asked for.

The picture is 128x64 pixels, drawn with MicroPython's framebuf and sent by
the driver (device/ssd1306.py). The board fills the left 64x64: dark squares lit,
light squares dark, a piece an 8x8 figure. A white piece is lit inside, a
black piece dark inside; each has a one-pixel rim of the other colour, so
both show on either square. The right half has seven columns of text:

    White      the side to move, highlighted (with a clock, its time:
    Black      W 14:52 / B 15:00)
    12...      the last move
    Nxe5+
    Check      or Mate, Draw, Stalemate, 1-0 ...
    +0.35      the engine's evaluation for White, when shown (#-2: mated in 2)

    display = Display(SSD1306(i2c))
    display.show(game, "Nf3")          # a game.Game and its last move in SAN
"""
import framebuf

from micro960.rules.position import BLACK, OFF, TO64, WHITE

# The figures, 6x6 inside the 8x8 square (a rim goes round them), rows from
# the top, by piece type 1-6: pawn, knight, bishop, rook, queen, king.
FIGURES = (
    ("..##..", ".####.", "..##..", ".####.", ".####.", "######"),
    (".###..", "#####.", "#.###.", "..###.", ".####.", "######"),
    ("..#...", ".###..", ".#.##.", ".####.", "..##..", "######"),
    ("#.##.#", "######", ".####.", ".####.", ".####.", "######"),
    ("#.##.#", "#.##.#", "######", ".####.", ".####.", "######"),
    ("..##..", ".####.", "..##..", "######", ".####.", "######"),
)
TEXT_X = 68  # where the text column starts


def _masks(rows):
    """(figure, rim) of a figure as 8 row bytes each, bit 7 the left pixel."""
    figure = bytearray(8)
    for y in range(6):
        for x in range(6):
            if rows[y][x] == "#":
                figure[y + 1] |= 0x40 >> x
    rim = bytearray(8)
    for y in range(8):
        around = figure[y] | figure[y] << 1 | figure[y] >> 1
        if y:
            around |= figure[y - 1]
        if y < 7:
            around |= figure[y + 1]
        rim[y] = around & 0xFF & ~figure[y]
    return bytes(figure), bytes(rim)


class Display:
    def __init__(self, driver):
        self.driver = driver
        self.width = driver.width
        self.buffer = bytearray(driver.width * driver.height // 8)
        self.frame = framebuf.FrameBuffer(self.buffer, driver.width, driver.height,
                                          framebuf.MONO_VLSB)
        self.masks = [_masks(rows) for rows in FIGURES]

    def show(self, game, last=None, clock=None, evaluation=None, flipped=False):
        """Draw `game`, its last move `last` (SAN), its clock.Clock and the
        engine's evaluation (centipawns, for White), and send the picture."""
        frame = self.frame
        frame.fill(0)
        self._board(game.pos.board, flipped)
        side = game.pos.side
        self._players(side if game.result() == "*" else 0, clock)
        if last and game.moves:
            pos = game.pos
            frame.text("%d.%s" % (pos.fullmove - (side == WHITE), ".." if side == WHITE else ""),
                       TEXT_X, 24, 1)
            frame.text(last[:7], TEXT_X, 34, 1)
        frame.text(_status(game), TEXT_X, 46, 1)
        if evaluation is not None:
            frame.text(_evaluation_text(evaluation), TEXT_X, 56, 1)
        self.driver.show(self.buffer)

    def show_clocks(self, clock, side):
        """Redraw only the two clocks, `side`'s lit, and send the picture: the
        search calls this while game.pos is its own, each second it thinks."""
        self.frame.fill_rect(TEXT_X - 2, 0, self.width - TEXT_X + 2, 20, 0)
        self._players(side, clock)
        self.driver.show(self.buffer)

    def _players(self, lit_side, clock):
        """The two players' rows: their names, or with a clock their time;
        the side to move (lit_side, 0 for none) highlighted."""
        frame = self.frame
        for i, colour in enumerate((WHITE, BLACK)):
            name = "White" if colour == WHITE else "Black"
            if clock:
                left = clock.left_text(colour)
                if len(left) > 5:  # 1:30:00 does not fit: 1h30
                    left = left[:-3].replace(":", "h")
                name = "%s %s" % (name[0], left)
            lit = colour == lit_side
            if lit:
                frame.fill_rect(TEXT_X - 2, i * 10, self.width - TEXT_X + 2, 10, 1)
            frame.text(name[:7], TEXT_X, i * 10 + 1, 0 if lit else 1)

    def _board(self, board, flipped):
        frame = self.frame
        for sq in range(21, 99):
            piece = board[sq]
            if piece == OFF:
                continue
            s = TO64[sq]
            file, rank = s & 7, s >> 3
            if flipped:
                file, rank = 7 - file, 7 - rank
            x, y = file * 8, (7 - rank) * 8
            dark = (file + rank) % 2 == 0  # a1 is dark
            if dark:
                frame.fill_rect(x, y, 8, 8, 1)
            if piece:
                figure, rim = self.masks[(piece & 7) - 1]
                inside = 1 if piece & WHITE else 0
                for row in range(8):
                    for col in range(8):
                        bit = 0x80 >> col
                        if figure[row] & bit:
                            frame.pixel(x + col, y + row, inside)
                        elif rim[row] & bit:
                            frame.pixel(x + col, y + row, 1 - inside)


def _evaluation_text(score):
    """+1.40 in pawns, or #+3 / #-2: a mate in that many moves."""
    if abs(score) >= 29000:
        return "#%s%d" % ("+" if score > 0 else "-", (30000 - abs(score) + 1) // 2)
    return "%+.2f" % (score / 100)


def _status(game):
    """One word for the display: the game's state, or nothing to say."""
    result = game.result()
    if result == "*":
        if game.pos.in_check() and not game.rules.king_capture:
            return "Check"
        return ""
    reason = game.reason()
    if reason == "checkmate":
        return "Mate"
    if reason == "stalemate":
        return "Stalem."
    return "Draw" if result == "1/2-1/2" else result
