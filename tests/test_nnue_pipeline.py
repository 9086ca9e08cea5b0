"""The network's host-side pipeline on a tiny sample: generate -> train ->
export -> the integer reference (host_tools/nnue/).

It plays real games in every rule set, labels them with the real Stockfish,
trains with numpy (requirements-train.txt, which `make test` installs) and
reads the weights file back as the firmware will have to.
"""
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import need_tool, tool_missing

try:
    import numpy as np
except ImportError:  # `make test` installs it (requirements-train.txt)
    np = None

from host_tools.nnue import reference

REPO = Path(__file__).resolve().parent.parent

RULES = ("chess960", "classical", "double960", "shuffle", "chess480", "transcendental", "lrs")

# Positions of every kind, scored by both networks: start positions,
# middlegames, endgames, Black to move, pieces missing.
FIXED = (
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "nrbkqbrn/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/NRBKQB1R b KQkq - 1 2",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/8/2k5/8/8/8/3QK3 w - - 0 1",
    "8/8/8/2k5/8/8/8/3QK3 b - - 0 1",
)


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory):
    """Run the whole pipeline once on a few hundred positions."""
    if np is None:
        tool_missing("numpy is not installed (pip install -r requirements-train.txt)")
    stockfish = need_tool("stockfish")
    from host_tools.nnue import export, generate, train
    folder = tmp_path_factory.mktemp("nnue")
    data = folder / "positions.tsv"
    # Short games at a low depth: many games, so every rule set comes up.
    generate.main(["--positions", "400", "--depth", "3", "--seed", "7", "--player-nodes", "30",
                   "--max-plies", "40", "--keep", "0.25", "--stockfish", stockfish, "--out", str(data)])
    positions = train.load_positions(data, 1)
    net, history = train.train(positions, hidden=16, epochs=6, batch=64, lr=5e-3, lam=0.7,
                               validation=0.1, seed=3, say=lambda line: None)
    model = folder / "float.npz"
    net.save(model)
    weights_path = folder / "micro960.nnue"
    weights, size = export.export(model, weights_path)
    return {"data": data, "net": train.load_network(model), "history": history,
            "path": weights_path, "weights": weights, "size": size, "train": train,
            "generate": generate, "stockfish": stockfish}


def data_lines(pipeline):
    return [line.rstrip("\n").split("\t") for line in open(pipeline["data"])]


def test_generator_writes_labelled_quiet_positions_of_every_rule_set(pipeline):
    import chess
    lines = data_lines(pipeline)
    assert len(lines) == 400
    assert {rules for _, _, _, rules in lines} == set(RULES)
    for fen, score, result, rules in lines:
        assert -3000 <= int(score) <= 3000
        assert result in ("0", "0.5", "1")
        if rules != "lrs":
            board = chess.Board(fen, chess960=True)
            assert board.is_valid() and not board.is_check(), fen


def test_generator_is_reproducible_from_its_seed(pipeline, tmp_path):
    args = ["--positions", "40", "--depth", "3", "--seed", "11", "--player-nodes", "30",
            "--max-plies", "40", "--stockfish", pipeline["stockfish"]]
    pipeline["generate"].main(args + ["--out", str(tmp_path / "a.tsv")])
    pipeline["generate"].main(args + ["--jobs", "2", "--out", str(tmp_path / "b.tsv")])
    assert (tmp_path / "a.tsv").read_text() == (tmp_path / "b.tsv").read_text()


def test_lrs_positions_stockfish_cannot_read_are_not_labelled(pipeline):
    from micro960.rules.game import Game
    generate = pipeline["generate"]
    # White's king stands in check with Black to move: legal in LRS (Black
    # may take it), not in chess.
    game = Game("lrs", "4k3/8/8/8/8/8/4r3/4K3 b - - 0 1")
    assert generate.stockfish_fen(game) is None
    game = Game("lrs", "4k3/8/8/8/8/8/4r3/8 w - - 0 1")  # White's king is gone
    assert generate.stockfish_fen(game) is None
    game = Game("lrs", "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1")
    assert generate.stockfish_fen(game) == "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1"
    # Chess480 castles its own way: Stockfish gets no castling rights.
    game = Game("chess480", number=518)
    assert generate.stockfish_fen(game).split()[2] == "-"


def test_training_reduces_the_loss(pipeline):
    history = pipeline["history"]
    first, last = history[0], history[-1]
    # The training loss; the validation part here is the last game or two
    # (held back whole), too few to say anything either way.
    assert last[1] < 0.8 * first[1]
    assert all(later[1] < earlier[1] for earlier, later in zip(history[:3], history[1:4]))


def test_weights_file_round_trips_with_its_checksum(pipeline):
    data = pipeline["path"].read_bytes()
    assert len(data) == pipeline["size"] == reference.HEADER.size + \
        reference.payload_size(16, 1) + 4
    back = reference.from_bytes(data)
    mine = pipeline["weights"]
    assert (back.hidden, back.buckets, back.qa, back.qb) == (16, 1, 64, 32)
    assert list(back.w1) == list(mine.w1) and list(back.b1) == list(mine.b1)
    assert list(back.material) == list(mine.material)
    assert list(back.w2) == list(mine.w2) and list(back.b2) == list(mine.b2)
    assert reference.to_bytes(back) == data


@pytest.mark.parametrize("damage, message", [
    (lambda d: d[:len(d) // 2], "truncated"),
    (lambda d: d[:-1], "truncated"),
    (lambda d: d + b"\0", "truncated"),
    (lambda d: d[:100] + bytes([d[100] ^ 1]) + d[101:], "checksum"),
    (lambda d: d[:-2] + bytes([d[-2] ^ 0x80, d[-1]]), "checksum"),
    (lambda d: b"XXXX" + d[4:], "not a micro960 weights file"),
    (lambda d: d[:4] + b"\x02\x00" + d[6:], "version 2"),
    (lambda d: b"", "too short"),
])
def test_a_damaged_weights_file_is_refused(pipeline, tmp_path, damage, message):
    path = tmp_path / "bad.nnue"
    path.write_bytes(damage(pipeline["path"].read_bytes()))
    with pytest.raises(ValueError, match=message):
        reference.read(path)


def float_scores(pipeline, fens, net=None):
    train = pipeline["train"]
    return (net or pipeline["net"]).centipawns(*train.fen_inputs(fens, 1)).astype(np.float64)


def fixed_positions(pipeline):
    return list(FIXED) + [fen for fen, _, _, _ in data_lines(pipeline)[::10]]


def test_integer_reference_is_the_float_network_on_its_quantized_weights(pipeline):
    """The integer arithmetic computes exactly the network: run in floats on
    the very same (dequantized) weights it gives the same centipawns, but
    for the final floor division."""
    w = reference.read(pipeline["path"])
    net = pipeline["train"].Network(w.hidden, w.buckets, np.random.default_rng(0))
    scale = pipeline["train"].SCALE
    net.params["w1"][:reference.INPUTS] = np.array(w.w1).reshape(-1, w.hidden) / w.qa
    net.params["psqt"][:reference.INPUTS] = np.array(w.material) / scale
    net.params["b1"][...] = np.array(w.b1) / w.qa
    net.params["w2"][...] = np.array(w.w2).reshape(w.buckets, -1) / (scale * w.qb)
    net.params["b2"][...] = np.array(w.b2) / (scale * w.qa * w.qb)
    fens = fixed_positions(pipeline)
    exact = float_scores(pipeline, fens, net)
    for fen, x in zip(fens, exact):
        assert -0.01 < x - reference.evaluate(w, fen) < 1.01, fen


def test_integer_reference_is_the_trained_network_within_quantization_error(pipeline):
    w = reference.read(pipeline["path"])
    fens = fixed_positions(pipeline)
    trained = float_scores(pipeline, fens)
    errors = np.array([reference.evaluate(w, fen) for fen in fens]) - trained
    # Rounding: half a unit of 1/64 in up to 33 accumulator terms (a byte a
    # weight: QA is 64, not int16's 255), half of 1/32 cp in each output
    # weight, then the floor (up to 1 cp).
    assert np.abs(errors).max() <= 10
    assert np.abs(errors).mean() <= 4


def test_a_position_scores_the_same_as_its_colour_flipped_mirror(pipeline):
    w = reference.read(pipeline["path"])
    fens = fixed_positions(pipeline)
    mirrors = [reference.mirror(fen) for fen in fens]
    assert reference.mirror(FIXED[7]) == "3qk3/8/8/8/2K5/8/8/8 b - - 0 1"
    for fen, flipped in zip(fens, mirrors):
        assert reference.evaluate(w, fen) == reference.evaluate(w, flipped), fen
    assert np.allclose(float_scores(pipeline, fens), float_scores(pipeline, mirrors), atol=1e-3)


def test_features_see_each_side_from_its_own_side():
    # White's knight on g1 for White is Black's knight on g8 for Black.
    ours, theirs, pieces = reference.features("k5n1/8/8/8/8/8/8/K5N1 w - - 0 1")
    assert pieces == 4
    assert 0 * 384 + 1 * 64 + 6 in ours  # our knight, g1
    assert 1 * 384 + 1 * 64 + 62 in ours  # their knight, g8
    ours_b, theirs_b, _ = reference.features("k5n1/8/8/8/8/8/8/K5N1 b - - 0 1")
    assert sorted(ours_b) == sorted(theirs) and sorted(theirs_b) == sorted(ours)
    assert sorted(ours_b) == sorted(ours)  # the position is its own mirror


def test_reference_scores_by_hand_made_weights():
    """The arithmetic on weights small enough to follow by hand: N=1, the
    clamp at both ends, the material column, the floor division; and the
    file's bytes (the first layer a byte a weight, + 128)."""
    queen = 4 * 64  # "pnbrqk": the queen is piece type 4
    w1 = [0] * reference.INPUTS
    w1[queen + 3] = 100  # our queen on d1
    w1[384 + queen + 59] = -50  # their queen on d8
    material = [0] * reference.INPUTS
    material[queen + 3] = 900
    material[384 + queen + 59] = -900
    weights = reference.Weights(1, 1, 64, 32, w1, [10], material, [64, -96], [-40801])
    fen = "4k3/8/8/8/8/8/8/3QK3 %s - - 0 1"
    # White to move: White's accumulator 10 + 100 clamps to 64; Black's
    # sees the white queen as their queen on d8: 10 - 50 clamps to 0. The
    # material columns are 900 and -900, counted at (900 + 900) * 2048 / 2.
    # 64 * 64 + 0 * -96 - 40801 + 1,843,200 = 1,806,495, and // (64 * 32) = 882.
    assert reference.evaluate(weights, fen % "w") == 882
    # Black to move: the side to move's (Black's) is 0, the other's 64:
    # 0 * 64 + 64 * -96 - 40801 - 1,843,200 = -1,890,145, // 2048 = -923.
    assert reference.evaluate(weights, fen % "b") == -923
    data = reference.to_bytes(weights)
    assert len(data) == reference.HEADER.size + reference.payload_size(1, 1) + 4
    assert data[reference.HEADER.size + queen + 3] == 228  # 100 + 128
    back = reference.from_bytes(data)
    assert (back.w1, back.material) == (w1, tuple(material))


def test_more_buckets_pick_output_weights_by_material():
    assert [reference.bucket_of(p, 4) for p in (2, 9, 10, 17, 24, 31, 32)] == [0, 0, 1, 2, 2, 3, 3]
    assert reference.bucket_of(32, 1) == 0


def test_a_queen_up_scores_above_a_queen_down():
    """Not for the tiny network (too little data to learn values): for the
    committed weights."""
    w = reference.read(REPO / "firmware" / "micro960" / "micro960.nnue")
    up = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert reference.evaluate(w, up) > 500
    assert reference.evaluate(w, reference.mirror(up)) == reference.evaluate(w, up)
    assert reference.evaluate(w, up.replace(" w ", " b ")) < -500


def test_every_option_of_the_pipeline_is_in_its_readme():
    """As tests/test_help_texts.py holds for the micro960 command."""
    if np is None:
        tool_missing("numpy is not installed (pip install -r requirements-train.txt)")
    from host_tools.nnue import export, generate, selfplay, train, validate
    readme = (Path(reference.__file__).parent / "README.md").read_text()
    for module in (generate, selfplay, train, export, validate):
        options = {option for action in module.build_parser()._actions
                   for option in action.option_strings if option.startswith("--")}
        assert options - {"--help"}, module
        assert not [o for o in sorted(options) if o not in readme and o != "--help"], module


def test_validate_compares_the_network_and_the_hand_written_evaluation(pipeline, capsys):
    from host_tools.nnue import validate
    validate.main(["--weights", str(pipeline["path"]), "--data", str(pipeline["data"]),
                   "--validation", "0.25"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "100 positions held back"
    assert lines[1].startswith("network ") and lines[2].startswith("hand-written handwritten.py ")
    assert all("cp, win-chance loss 0.0" in line for line in lines[1:])


def test_selfplay_writes_labelled_quiet_positions_and_is_reproducible(pipeline, tmp_path):
    """selfplay.py: Stockfish's games with random moves, Chess960 and double960."""
    import chess
    from host_tools.nnue import selfplay
    args = ["--positions", "300", "--depth", "2", "--seed", "5", "--double960", "0.5",
            "--random-moves", "0.2", "--stockfish", pipeline["stockfish"]]
    selfplay.main(args + ["--out", str(tmp_path / "a.tsv")])
    selfplay.main(args + ["--jobs", "2", "--out", str(tmp_path / "b.tsv")])
    text = (tmp_path / "a.tsv").read_text()
    assert text == (tmp_path / "b.tsv").read_text()
    lines = [line.split("\t") for line in text.splitlines()]
    assert len(lines) == 300
    assert {rules for _, _, _, rules in lines} == {"chess960", "double960"}
    for fen, score, result, rules in lines:
        board = chess.Board(fen, chess960=True)
        assert board.is_valid() and not board.is_check(), fen
        assert -3000 <= int(score) <= 3000 and result in ("0", "0.5", "1")



def test_selfplay_double960_gives_each_side_its_own_set_up():
    import random
    import chess
    from host_tools.nnue.selfplay import start_board
    rng = random.Random(1)
    boards = [start_board(rng, 1.0)[0] for _ in range(20)]
    for board in boards:
        assert board.is_valid() and board.chess960
        assert bin(board.castling_rights).count("1") == 4  # both rooks of each side
    ranks = [(board.fen().split("/")[0], board.fen().split("/")[7].split()[0]) for board in boards]
    assert any(black.upper() != white for black, white in ranks)
    assert start_board(rng, 0.0)[1] == "chess960"


def test_micro960_plays_its_share_of_games_in_the_unix_port(pipeline, tmp_path):
    """--micro960-share 1: micro960's UCI engine plays every game, so the games
    differ from Stockfish's own from the same seed."""
    args = ["--positions", "60", "--depth", "3", "--seed", "11", "--player-nodes", "200",
            "--max-plies", "40", "--rules", "chess960", "--stockfish", pipeline["stockfish"]]
    pipeline["generate"].main(args + ["--out", str(tmp_path / "sf.tsv")])
    pipeline["generate"].main(args + ["--micro960-share", "1", "--out", str(tmp_path / "ours.tsv")])
    ours = (tmp_path / "ours.tsv").read_text().splitlines()
    assert len(ours) == 60
    assert ours != (tmp_path / "sf.tsv").read_text().splitlines()


def test_training_keeps_the_epoch_best_on_held_back_games(pipeline):
    """The returned network is the one of the lowest validation loss."""
    train = pipeline["train"]
    positions = train.load_positions(pipeline["data"], 1)
    net, history = train.train(positions, hidden=8, epochs=4, batch=64, lr=2e-2,
                               validation=0.2, seed=3, say=lambda line: None)
    _, validation = train.split(positions, 0.2)
    assert abs(train.loss_of(net, validation, 400.0, 1.0) - min(h[2] for h in history)) < 1e-6


def test_selfplay_labels_kept_positions_by_the_deeper_search(pipeline, tmp_path):
    """--label-depth: the games are played at --depth, and each kept position
    is labelled by the score of a search to --label-depth of it."""
    from host_tools.nnue import generate, selfplay
    searches = []

    class Recorded(generate.Engine):
        def search(self, fen, limit=None):
            answer = super().search(fen, limit)
            searches.append((fen, limit or self.limit, answer[0]))
            return answer

    engine = Recorded([pipeline["stockfish"]], (("Threads", 1), ("UCI_Chess960", "true")),
                      "depth 2")
    args = selfplay.build_parser().parse_args(["--depth", "2", "--label-depth", "6",
                                               "--max-plies", "60"])
    try:
        kept, _ = selfplay.play_game(engine, random.Random(4), args)
    finally:
        engine.process.kill()
    deep = {fen: score for fen, limit, score in searches if limit == "depth 6"}
    assert kept and len(deep) < len(searches) // 2  # only the kept positions search deep
    for fen, score, _, _ in kept:
        assert fen in deep and score == max(-3000, min(3000, deep[fen]))


def test_training_from_a_weights_file_starts_from_its_values(pipeline, tmp_path):
    """--init: the float network of a weights file exports to the same file,
    and training goes on from it (its N, not --hidden's)."""
    from host_tools.nnue import export
    train = pipeline["train"]
    weights = reference.read(pipeline["path"])
    start = train.from_weights(weights)
    assert reference.to_bytes(export.quantize(start)) == pipeline["path"].read_bytes()
    positions = train.load_positions(pipeline["data"], 1)
    net, _ = train.train(positions, hidden=8, epochs=0, validation=0.1, say=lambda line: None,
                         init=weights)
    assert all(np.array_equal(net.params[k], start.params[k]) for k in start.params)
    model = tmp_path / "float.npz"
    train.main(["--data", str(pipeline["data"]), "--init", str(pipeline["path"]),
                "--epochs", "1", "--lr", "1e-4", "--out", str(model)])
    later = train.load_network(model)
    assert later.hidden == 16
    assert np.abs(later.params["w1"] - start.params["w1"]).max() < 0.01  # on from it, not anew


def test_training_takes_several_files_xz_ones_too_and_holds_back_each_ones_end(pipeline,
                                                                                 tmp_path):
    """Positions made elsewhere (../shared/data/nnue/'s .xz) train beside
    make nnue's: each file's last games are held back, so every source's
    games are judged on positions training never saw."""
    import lzma
    from host_tools.nnue import validate
    train = pipeline["train"]
    lines = pipeline["data"].read_text().splitlines(keepends=True)
    first, second = tmp_path / "first.tsv", tmp_path / "second.tsv.xz"
    first.write_text("".join(lines[:300]))
    with lzma.open(second, "wt") as f:
        f.write("".join(lines[300:]))
    training, held = train.load_files([first, second], 1, 0.2)
    whole = train.load_positions(pipeline["data"], 1)
    cut = 300 - int(300 * 0.2), len(lines) - int((len(lines) - 300) * 0.2)
    index = np.r_[0:cut[0], 300:cut[1]], np.r_[cut[0]:300, cut[1]:len(lines)]
    for part, rows in zip((training, held), index):
        assert all(np.array_equal(a, b[rows]) for a, b in zip(part, whole))
    assert [fen for fen, _, _, _ in validate.held_back([first, second], 0.2)] == \
        [lines[i].split("\t")[0] for i in index[1]]
    model = tmp_path / "float.npz"
    train.main(["--data", str(first), str(second), "--hidden", "8", "--epochs", "1",
                "--validation", "0.2", "--out", str(model)])
    assert int(np.load(model)["positions"]) == len(lines)
    second.write_bytes(second.read_bytes()[:40])  # a damaged download: one line saying why
    with pytest.raises(SystemExit, match="^train: "):
        train.main(["--data", str(first), str(second), "--out", str(model)])


def test_make_nnue_runs_every_stage_on_a_tiny_sample(pipeline, tmp_path):
    """`make nnue` as a user runs it, every stage (the deeper-labelled
    second one too) on a few positions: a weights file the firmware reads."""
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(pipeline["stockfish"]).parent),
                                                 os.environ.get("PATH", "")]))
    small = ["NNUE_POSITIONS=40", "NNUE_DEPTH=2", "NNUE_SELFPLAY=100", "NNUE_SELFPLAY_DEPTH=2",
             "NNUE_TUNE=100", "NNUE_TUNE_DEPTH=3", "NNUE_HIDDEN=8", "NNUE_EPOCHS=2",
             "NNUE_TUNE_EPOCHS=1", "NNUE_DIR=%s" % tmp_path, "VENV=%s" % Path(sys.prefix),
             "NNUE_EXTRA=%s" % pipeline["data"], "NNUE_TUNE_EXTRA=%s" % pipeline["data"]]
    done = subprocess.run(["make", "-s", "-o", "%s/requirements.stamp" % sys.prefix,
                           "-o", "%s/requirements-train.stamp" % sys.prefix, "nnue"] + small,
                          cwd=str(REPO), env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert len((tmp_path / "tune.tsv").read_text().splitlines()) == 100
    extra = len(data_lines(pipeline))  # each stage trained on NNUE_EXTRA's file as well
    assert "%d positions, N=8" % (40 + 100 + extra) in done.stderr
    assert "%d positions, N=8" % (100 + extra) in done.stderr
    weights = reference.read(tmp_path / "micro960.nnue")
    assert (weights.hidden, weights.buckets) == (8, 4)
    assert (tmp_path / "tuned.npz").exists()
