"""The line editor: what serial terminals and GUIs send becomes clean lines.

Runs on CPython and, through tests/mprun.py, on the MicroPython unix port.
"""
from micro960.lines import BELL, CONSOLE_LIMIT, RAW_OVER, RUB_OUT, LineEditor, text

try:
    from unittest import SkipTest
except ImportError:  # MicroPython: mprun.py skips on any exception of this name
    class SkipTest(Exception):
        pass


def typed(text, echo=False, limit=None, editor=None):
    """Feed `text` a character at a time: (lines finished, echo written, editor)."""
    written = []
    if editor is None:
        if limit is None:
            editor = LineEditor(written.append if echo else None)
        else:
            editor = LineEditor(written.append if echo else None, limit)
    elif echo:
        editor.echo = written.append
    lines = []
    for ch in text:
        line = editor.feed(ch)
        if line is not None:
            lines.append(line)
    return lines, "".join(written), editor


def test_cr_lf_and_crlf_each_end_one_line():
    assert typed("e4\r")[0] == ["e4"]
    assert typed("e4\n")[0] == ["e4"]
    assert typed("e4\r\nNf3\r\n")[0] == ["e4", "Nf3"]  # no empty line after each CR LF
    assert typed("e4\rNf3\r")[0] == ["e4", "Nf3"]
    # Enter on its own is a line (main.py waits for it), in every convention.
    assert typed("\r\r\n\n")[0] == ["", "", ""]
    assert typed("\r\n\r\n")[0] == ["", ""]


def test_a_cr_then_a_long_pause_then_lf_is_still_one_line_end():
    lines, _, editor = typed("go\r")
    assert lines == ["go"]
    # ... the terminal sits idle; the LF of that CR LF arrives much later.
    assert typed("\nhint\n", editor=editor)[0] == ["hint"]


def test_backspace_and_delete_take_back_characters():
    assert typed("e5\x084\r")[0] == ["e4"]
    assert typed("Nf4\x7f3\n")[0] == ["Nf3"]
    assert typed("\x08\x7fe4\x08\x08\x08\x08d4\n")[0] == ["d4"]  # nothing to rub out: no harm
    assert typed("new 960\x15new 518\r")[0] == ["new 518"]  # Ctrl-U: the whole line


def test_arrow_keys_and_escape_sequences_are_swallowed():
    assert typed("e\x1b[D\x1b[C4\r")[0] == ["e4"]  # left, right
    assert typed("\x1b[Ae4\x1b[B\r")[0] == ["e4"]  # up, down (no echo: no recall)
    assert typed("e\x1bOA4\r")[0] == ["e4"]  # application cursor keys: ESC O A
    assert typed("e\x1b[1;5A4\r")[0] == ["e4"]  # Ctrl-up, with parameters
    assert typed("e\x1b[3~4\r")[0] == ["e4"]  # the Delete key: ESC [ 3 ~
    assert typed("e\x1b[200~4\x1b[201~\r")[0] == ["e4"]  # bracketed paste markers
    # A lone Escape swallows nothing after it: Esc then Nc6 is Nc6, not c6
    # (so Alt-x, which terminals send as ESC x, types x).
    assert typed("\x1bNc6\r")[0] == ["Nc6"]
    assert typed("\x1bxe4\r")[0] == ["xe4"]
    # A control character cuts a sequence short and still counts.
    assert typed("e4\x1b\r")[0] == ["e4"]
    assert typed("e4\x1b[\r")[0] == ["e4"]


def test_other_control_characters_are_ignored_and_non_ascii_is_marked():
    assert typed("e\x004\x07\x01\x04\x0c\r")[0] == ["e4"]
    assert typed("new\t518\n")[0] == ["new 518"]  # a tab is a space
    # From a program (UCI) what is not ASCII is line noise, dropped; from a
    # person (the console) the knight of "\u2658f3" dropped would leave the
    # pawn move f3: each such character leaves a mark, and the line is refused.
    assert typed("N\xe9f3\u2654\x9b\r")[0] == ["Nf3"]
    person = LineEditor()
    person.mark_foreign = True
    assert typed("\u2658f3\r", editor=person)[0] == ["\x1af3"]
    assert typed("N\xe9f3\r", editor=person)[0] == ["N\x1af3"]


def test_echo_writes_back_what_is_typed_and_rubs_out():
    lines, echo, _ = typed("e5\x7f4\r\n", echo=True)
    assert lines == ["e4"]
    assert echo == "e5" + RUB_OUT + "4\n"
    # Keys that do nothing echo nothing.
    assert typed("\x1b[D\x08\x00\r", echo=True)[1] == "\n"
    assert typed("ab\x15\n", echo=True)[1] == "ab" + RUB_OUT * 2 + "\n"


def test_up_and_down_recall_earlier_lines_when_echoing():
    lines, echo, editor = typed("e4\rNf3\r", echo=True)
    up, down = "\x1b[A", "\x1b[B"
    lines, echo, _ = typed("x" + up + "\r", echo=True, editor=editor)
    assert lines == ["Nf3"]
    assert echo == "x" + RUB_OUT + "Nf3\n"
    lines, echo, _ = typed(up + up + up + "\r", echo=True, editor=editor)
    assert lines == ["e4"]  # Nf3 was not kept twice; the third up finds nothing more
    assert echo.endswith(BELL + "\n")
    # Now e4, Nf3, e4 were typed: up, up, up goes back to the first; down to Nf3.
    assert typed(up + up + up + down + "\r", echo=True, editor=editor)[0] == ["Nf3"]
    assert typed(up + down + "g3\r", echo=True, editor=editor)[0] == ["g3"]


def test_a_line_is_kept_to_its_limit_plus_one_character():
    limit = 10
    lines, echo, editor = typed("x" * 50 + "\r", echo=True, limit=limit)
    assert lines == ["x" * (limit + 1)]  # one more than the limit: too long, not cut to fit
    assert echo == "x" * (limit + 1) + BELL * (50 - limit - 1) + "\n"
    assert len(editor.buffer) == limit + 1
    assert typed("y" * 5 + "\x08" * 2 + "z\r", limit=3)[0] == ["yyz"]


def test_resize_keeps_the_partial_line():
    editor = LineEditor()
    for ch in "new 5":
        editor.feed(ch)
    editor.resize(CONSOLE_LIMIT)
    assert len(editor.buffer) == CONSOLE_LIMIT + 1
    assert typed("18\r", editor=editor)[0] == ["new 518"]


def test_finish_returns_an_unended_last_line():
    lines, _, editor = typed("quit")
    assert lines == [] and editor.finish() == "quit"
    assert editor.finish() is None


def test_raw_hands_long_lines_over_in_the_buffer_itself():
    # The UCI engine reads a long game's position line where it lies.
    editor = LineEditor(size=512)
    editor.raw = True
    long_line = "position startpos moves" + " e2e4" * 60
    short = "isready"
    lines, _, _ = typed(short + "\n" + long_line + "\n", editor=editor)
    assert lines[0] == short
    # (valid until the next character is fed)
    assert len(long_line) > RAW_OVER and lines[1] is editor.buffer
    assert text(lines[1]) == long_line and text(short) == short
    assert typed(short + "\n", editor=editor)[0] == [short]
    # A line that fills the buffer exactly has no end mark.
    full = "x" * len(editor.buffer)
    lines, _, _ = typed(full + "\n", editor=editor)
    assert text(lines[0]) == full


def test_a_line_longer_than_the_heap_has_room_for_comes_back_too_long():
    # MicroPython only: with the heap locked, the buffer cannot grow.
    try:
        from micropython import heap_lock, heap_unlock
    except ImportError:
        raise SkipTest("heap_lock is MicroPython's")
    editor = LineEditor(size=16)
    chars = ["x"] * 40  # made before the heap is locked
    heap_lock()
    try:
        for ch in chars:
            editor.feed(ch)
    finally:
        heap_unlock()
    # The limit came down to what the buffer holds, so the line is one
    # character over it: too long, like a line over the set limit.
    assert editor.limit == 15 and len(editor.buffer) == 16
    assert editor.feed("\n") == "x" * 16
    assert typed("y" * 5 + "\r", editor=editor)[0] == ["yyyyy"]
