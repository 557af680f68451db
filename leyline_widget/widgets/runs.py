"""Long work a widget does while its page keeps drawing: the coach's analysis.

Where the kernel can start a thread (CPython in Jupyter, VS Code, marimo), the work runs in one;
where it cannot (Pyodide in JupyterLite: "can't start new thread"), the page drives it one step
per message, so progress still shows and Cancel still answers between steps. Which of the two is
decided by trying, once, to start a thread: a capability, never a platform's name.

>>> run = StepRun(iter([(0, 2), (1, 2), (2, 2)]), lambda done, total: None)
>>> run.step(), run.step(), run.step(), run.step()
(True, True, True, False)
>>> run.is_alive()
False
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterator
from functools import cache
from typing import Any

__all__ = ["StepRun", "threads_available"]

Progress = Callable[[int, int], None]


@cache
def threads_available() -> bool:
    """Whether this Python can start a thread (asked once, by starting one that does nothing).

    >>> isinstance(threads_available(), bool)
    True
    """
    try:
        probe = threading.Thread(target=lambda: None, name="leyline-probe", daemon=True)
        probe.start()
    except RuntimeError:  # "can't start new thread": Pyodide, or a host out of threads
        return False
    probe.join()
    return True


class StepRun:
    """One run of a generator of ``(done, total)`` steps that returns a result.

    ``step()`` advances it once (False when it has finished or was cancelled); ``progress`` hears
    each ``(done, total)``. ``start_thread()`` runs every step in a background thread instead;
    ``join()`` waits for that thread, or, with no thread, runs the remaining steps here.
    ``result`` holds what the generator returned, ``error`` the exception that stopped it.

    >>> def work() -> Generator[tuple[int, int], None, str]:
    ...     yield 0, 1
    ...     yield 1, 1
    ...     return "done"
    >>> run = StepRun(work(), lambda done, total: print(done, total))
    >>> run.join()
    0 1
    1 1
    >>> run.result, run.cancelled
    ('done', False)
    """

    def __init__(self, steps: Iterator[tuple[int, int]] | Generator[tuple[int, int], None, Any],
                 progress: Progress) -> None:
        self._steps = steps
        self._progress = progress
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._finished = False
        #: True once :meth:`cancel` stopped the run before its end.
        self.cancelled = False
        #: What the steps returned (None until they finish).
        self.result: Any = None
        #: The exception that stopped the steps, if any.
        self.error: BaseException | None = None

    def step(self) -> bool:
        """Take one step; False once the run is over (finished, failed or cancelled).

        >>> StepRun(iter([]), lambda done, total: None).step()
        False
        """
        with self._lock:
            if self._finished:
                return False
            try:
                done, total = next(self._steps)
            except StopIteration as end:
                self.result = end.value
                self._finished = True
                return False
            except Exception as err:  # reported by the caller, never lost
                self.error = err
                self._finished = True
                return False
        self._progress(done, total)
        return True

    def cancel(self) -> None:
        """Stop before the next step (the step under way, if any, ends first).

        >>> run = StepRun(iter([(0, 3), (1, 3)]), lambda done, total: None)
        >>> run.cancel(); run.step(), run.cancelled
        (False, True)
        """
        with self._lock:
            if not self._finished:
                self.cancelled = True
                self._finished = True

    def is_alive(self) -> bool:
        """Whether steps remain to be taken (the thread's or the page's).

        >>> StepRun(iter([(0, 1)]), lambda done, total: None).is_alive()
        True
        """
        return not self._finished

    def start_thread(self, name: str, then: Callable[[], None]) -> None:
        """Run the remaining steps in a background thread, then call ``then`` there.

        >>> seen = []
        >>> run = StepRun(iter([(0, 1), (1, 1)]), lambda done, total: seen.append(done))
        >>> run.start_thread("example", lambda: seen.append("end")); run.join(); seen
        [0, 1, 'end']
        """
        def loop() -> None:
            while self.step():
                pass
            then()

        self._thread = threading.Thread(target=loop, name=name, daemon=True)
        self._thread.start()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the thread (at most ``timeout`` seconds); with no thread, finish the steps
        here (``timeout`` is then not used: each step is short and the caller asked to wait).

        >>> run = StepRun(iter([(0, 1)]), lambda done, total: None); run.join(); run.is_alive()
        False
        """
        if self._thread is not None:
            self._thread.join(timeout)
            return
        while self.step():
            pass

