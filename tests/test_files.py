"""Atomic writes (leyline_widget/core/files.py): a full disk, a missing folder or an error in
the middle of a write leaves the old file whole and says why."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from leyline_widget.core.files import WriteError, atomic_file, write_atomic


def test_write_atomic_writes_text_and_bytes(tmp_path: Path) -> None:
    assert write_atomic(tmp_path / "a.txt", "é\n").read_bytes() == "é\n".encode()
    assert write_atomic(tmp_path / "b.bin", b"\x00\x01").read_bytes() == b"\x00\x01"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.bin"]


def test_the_written_file_has_the_usual_permissions(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        path = write_atomic(tmp_path / "a.txt", "x")
    finally:
        os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o644


def test_an_error_in_the_block_keeps_the_old_file_and_no_temp(tmp_path: Path) -> None:
    path = write_atomic(tmp_path / "rows.csv", "old\n")
    with pytest.raises(RuntimeError), atomic_file(path) as f:
        f.write("new, half")
        raise RuntimeError("the writer failed")
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["rows.csv"]


def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(WriteError, match=r"folder .*missing does not exist") as info:
        write_atomic(tmp_path / "missing" / "x.json", "{}")
    assert isinstance(info.value, OSError) and info.value.errno == errno.ENOENT


def test_a_folder_as_target_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WriteError, match="the path is a folder"):
        write_atomic(tmp_path, "x")


def test_a_read_only_folder_is_refused_in_words(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    (tmp_path / "ro").mkdir()
    (tmp_path / "ro").chmod(0o500)
    try:
        with pytest.raises(WriteError, match="no permission"):
            write_atomic(tmp_path / "ro" / "x.txt", "x")
    finally:
        (tmp_path / "ro").chmod(0o700)


def test_only_text_or_bytes() -> None:
    with pytest.raises(ValueError, match="text or bytes, got dict"):
        write_atomic("x.json", {"a": 1})  # type: ignore[arg-type]


# In a child process whose files may not grow past LIMIT bytes (RLIMIT_FSIZE; Python ignores
# SIGXFSZ, so a write past it fails with EFBIG, as on a full disk): every writer of the
# package writes a small good file first, then a bigger one that cannot fit.
_FULL_DISK = textwrap.dedent("""
    import json, resource, sys
    from pathlib import Path
    from leyline_widget import Game, Replay, Study
    from leyline_widget.core.files import write_atomic
    from leyline_widget import LeylineWidget
    from leyline_widget.widgets.export import replay_html, study_html
    from leyline_widget.agents.bots import BotSeat, make_bot

    folder = Path(sys.argv[1])
    small = Replay.from_game(Game.new(players=2, seed=1))
    game = Game.new(players=2, seed=1)
    seats = [BotSeat(make_bot("greedy", seed=p), p) for p in range(2)]
    while not game.is_over:
        game.apply(seats[game.active_player].act(game))
    big = Replay.from_game(game)
    def study(*replays):
        s = Study()
        for r in replays:
            s.add(r)
        return s

    writers = {
        "plain.txt": lambda p, d: write_atomic(p, d),
        "replay.json": lambda p, d: (small if d == "small" else big).save(p),
        "page.html": lambda p, d: replay_html(small if d == "small" else big, p),
        "study.json": lambda p, d: (study(small) if d == "small"
                                    else study(big, big)).save(p),
        "study.html": lambda p, d: study_html(study(small) if d == "small"
                                              else study(big, big), p),
        "board.html": lambda p, d: LeylineWidget(Game.new(players=2, seed=1) if d == "small"
                                                 else game, deal_ms=0).to_html(p),
    }
    out = {}
    for name, write in writers.items():
        write(folder / name, "small" if name != "plain.txt" else "x" * 100)
        # Room for the old file's size and a little more, never for the new one.
        limit = (folder / name).stat().st_size + 16
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
        try:
            write(folder / name, "big" if name != "plain.txt" else "y" * 1000)
            out[name] = "written"
        except OSError as err:
            out[name] = f"{type(err).__name__}: {err}"
        resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY,) * 2)
    print(json.dumps(out))
""")


def test_a_full_disk_leaves_every_old_file_whole(tmp_path: Path) -> None:
    script = tmp_path / "full.py"
    script.write_text(_FULL_DISK)
    folder = tmp_path / "out"
    folder.mkdir()
    done = subprocess.run([sys.executable, str(script), str(folder)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert sorted(before) == sorted(result)  # no temporary file left behind
    for name, message in result.items():
        assert message.startswith("WriteError: cannot write "), (name, message)
        assert str(folder / name) in message
        assert message.endswith("the file is larger than this system allows"), message
        data = before[name]
        assert data
        if name.endswith(".json"):
            json.loads(data)  # the old file, whole
        elif name.endswith(".html"):
            assert data.rstrip().endswith(b"</html>")
        else:
            assert data == b"x" * 100
