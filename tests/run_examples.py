"""Run every example notebook as a user of the wheel would: ``./dev test-examples``.

Run by the interpreter of a venv where the package was installed from its wheel with the
``[examples]`` extra (and the notebook runner): each ``examples/*.ipynb`` runs top to bottom in
a fresh ``python3`` kernel of that interpreter, and ``examples/marimo_play.py`` as a marimo
app script, all in a temporary copy of the folder, so nothing lands in the repository and the
checkout's own ``leyline_widget`` is never the one imported. It also checks that the installed
package enables no Jupyter server extension (its entry is installed disabled: opt-in).

    .venv-examples/bin/python tests/run_examples.py examples [--save FOLDER]

With ``--save`` the executed notebooks are written to FOLDER, where tests/test_notebooks.py
reads their outputs (``$LEYLINE_EXECUTED_EXAMPLES``) instead of running them again.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

CELL_TIMEOUT = 300  # seconds: generous for a loaded 2-core machine


def main(folder: str, save: str | None = None) -> int:
    source = Path(folder).resolve()
    keep = Path(save).resolve() if save else None
    if keep is not None:
        shutil.rmtree(keep, ignore_errors=True)
        keep.mkdir(parents=True)
    failed: list[str] = []
    dist = metadata.distribution("leyline_widget")
    for entry in (f for f in dist.files or [] if "etc/jupyter" in str(f)):
        config = json.loads(Path(str(dist.locate_file(entry))).read_text("utf-8"))
        enabled = config.get("ServerApp", {}).get("jpserver_extensions", {})
        if any(enabled.values()):  # the server extension is opt-in: installed disabled
            failed.append(f"the wheel enables a Jupyter server extension: {entry}: {enabled}")
    with tempfile.TemporaryDirectory(prefix="leyline-examples-") as tmp:
        work = Path(tmp) / "examples"
        shutil.copytree(source, work, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        where = subprocess.run([sys.executable, "-c",
                                "import leyline_widget; print(leyline_widget.__file__)"],
                               capture_output=True, text=True, cwd=work, check=True).stdout
        if Path(where.strip()).is_relative_to(source.parent / "leyline_widget"):
            failed.append(f"leyline_widget came from the checkout ({where.strip()}), "
                          "not from the wheel")
        for path in sorted(work.glob("*.ipynb")):
            failed += _notebook(path, keep)
        for path in sorted(work.glob("marimo_*.py")):
            failed += _marimo(path)
    for line in failed:
        print(f"FAILED {line}", file=sys.stderr)
    return 1 if failed else 0


def _notebook(path: Path, keep: Path | None) -> list[str]:
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    start = time.perf_counter()
    nb = nbformat.read(path, as_version=4)
    try:
        NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    except CellExecutionError as err:
        return [f"{path.name}: {str(err)[-1500:]}"]
    errors = [out for cell in nb.cells if cell.cell_type == "code"
              for out in cell.get("outputs", []) if out.get("output_type") == "error"]
    print(f"{path.name}: ran in {time.perf_counter() - start:.1f} s", flush=True)
    if keep is not None:
        nbformat.write(nb, keep / path.name)
    return [f"{path.name}: {e.get('ename')}: {e.get('evalue')}" for e in errors]


def _marimo(path: Path) -> list[str]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, path.name], capture_output=True, text=True,
                          cwd=path.parent, timeout=CELL_TIMEOUT, check=False)
    if done.returncode != 0:
        return [f"{path.name}: exit code {done.returncode}: {done.stderr[-1500:]}"]
    print(f"{path.name}: ran in {time.perf_counter() - start:.1f} s", flush=True)
    return []


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Run every example notebook.")
    parser.add_argument("folder", nargs="?", default="examples")
    parser.add_argument("--save", metavar="FOLDER", help="write the executed notebooks there")
    args = parser.parse_args()
    raise SystemExit(main(args.folder, args.save))
