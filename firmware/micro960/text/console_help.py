"""The console's `help` text: loaded when asked for, then released (compat.release),
so a board does not keep it in RAM."""
HELP = """Moves: SAN (Nf3, exd5, e8=Q, O-O, O-O-O) or UCI (g1f3, e7e8q).
Castle with O-O / O-O-O, by moving the king onto its rook (e1h1), or to its
destination square when that can only mean castling.
Commands, each with an example:
  new                 a new game from a random set-up of the current rules
                      (a game left unfinished goes to games.pgn, result *)
  new 518             a new game from set-up 518 (SP 0-959 in Chess960; shuffle
                      0-17, transcendental 0-2879, lrs 0-5039)
  new 3 900           double960 and transcendental: White's and Black's set-up
  new random          the same as plain new
  new dice 3 1 2 4 1  a new game from die rolls (Bodlaender's procedure)
  new classical       the classical start position, where the rules have it
  new RNBQKBNR        a new game from a back rank (new RNBQKBNR QRKRBBNN: two)
  new fen 8/8/8/4k3/8/8/8/4K2R w K - 0 1
                      a new game from an X-FEN or Shredder-FEN position
  new setup           the players place the back-rank pieces in turn, then
                      play: type the square for the piece named (c1)
  rules chess960      switch rules: chess960 classical double960 shuffle
                      chess480 transcendental lrs
  white               play White against the engine
  black               play Black against the engine
  both                two people play; the engine only moves when told to go
  go                  the engine plays the side to move now (and keeps it)
  hint                the engine suggests a move
  analyze             the engine's line for the position, deeper and deeper,
                      until you press Enter
  analyse             the same as analyze
  level 1500          play at about that rating (1100-1900, as Stockfish's
                      UCI_Elo; at 5 s a move or more on a Pico); level 0-19:
                      the same, evenly; level 20: full strength
  ponder off          the engine stops thinking on your time (ponder on: it
                      does, at level 10 and up, the default)
  threads 2           at full strength the engine searches on two threads
                      (a Pico's two cores: twice the nodes); threads 1: one
                      thread, the default
  time 5              seconds the engine thinks per move (and no clock;
                      time alone shows it, or the clock)
  clock 15+10         play on a clock: 15 minutes each, 10 s added a move
                      (clock 5: 5 minutes each; clock 40/90+30: 90 minutes
                      every 40 moves; clock off; clock alone shows it)
  moves               list the legal moves
  undo                take back your last move (and the engine's reply)
  draw                claim a draw (fifty-move rule, threefold repetition),
                      or else offer one: the engine answers at once; a person
                      types accept before their next move
  accept              accept the draw just offered
  resign              the side to move resigns
  board               show the board again
  flip                turn the board round (turned when you play Black)
  unicode             draw the pieces as chess symbols
  ascii               draw the pieces as letters (the default)
  color               paint the board in ANSI colours (color off: plain)
  colour              the same as color
  fen                 print the position as X-FEN
  fen shredder        print the position as Shredder-FEN
  pgn                 print the game as PGN
  help                this text
  quit                leave (exit does the same)"""
