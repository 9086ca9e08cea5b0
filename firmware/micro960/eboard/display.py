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
    Check      when the side to move is in check
    +0.35      the engine's evaluation for White, when shown (#-2: mated in 2)

and when the game is over, who won and why (ending() says it in words):

    White      neither side highlighted
    Black
    Qh4#       the last move
    Black      Black, White or Draw
    wins       (a draw: the reason in two lines, e.g. stale- / mate)
    by mate    or on time, resign., ...

    display = Display(SSD1306(i2c))
    display.show(game, "Nf3")          # a game.Game and its last move in SAN
"""
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
TEXT_X = 68  # where the text column starts: 7 characters of 8 pixels fit

# Why a game ended, in at most 7 characters a line: (words of the rules'
# reason, Game.reason(), what the display says). A win says why in one
# line under "wins"; a draw has two lines under "Draw".
WON_BY = (("checkmate", "by mate"), ("on time", "on time"), ("resigns", "resign."),
          ("captured", "K taken"))
DRAWN_BY = (("stalemate", "stale-", "mate"), ("75-move", "75-move", "rule"),
            ("fivefold", "5-fold", "repet."), ("fifty", "50-move", "claimed"),
            ("threefold", "3-fold", "claimed"), ("insufficient", "insuff.", "mat'l"),
            ("cannot mate", "time up", "no mate"), ("agreed", "agreed", ""))


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
        import framebuf  # here, so that ending() is read on CPython too, which has none
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
        over = ending(game)
        self._players(0 if over else side, clock)
        if over:
            if last and game.moves:
                frame.text(last[:7], TEXT_X, 24, 1)
            for y, line in zip((34, 46, 56), over):
                frame.text(line, TEXT_X, y, 1)
        else:
            if last and game.moves:
                frame.text("%d.%s" % (game.pos.fullmove - (side == WHITE),
                                      ".." if side == WHITE else ""), TEXT_X, 24, 1)
                frame.text(last[:7], TEXT_X, 34, 1)
            if game.pos.in_check() and not game.rules.king_capture:
                frame.text("Check", TEXT_X, 46, 1)
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


def ending(game):
    """The end of the game for the display, three lines of at most 7
    characters: who won (White, Black) and "wins", or "Draw", then why;
    None while the game goes on."""
    result = game.result()
    if result == "*":
        return None
    reason = game.reason()
    if result == "1/2-1/2":
        for words in DRAWN_BY:
            if words[0] in reason:
                return ("Draw", words[1], words[2])
        return ("Draw", "", "")
    winner = "White" if result == "1-0" else "Black"
    for words, text in WON_BY:
        if words in reason:
            return (winner, "wins", text)
    return (winner, "wins", "")
