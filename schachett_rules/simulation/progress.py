"""Progress bars for long runs (rich), written to standard error."""

from __future__ import annotations

import contextlib
from typing import Callable, Iterator

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn


@contextlib.contextmanager
def bar(total: int, label: str, disable: bool = False) -> Iterator[Callable[[int], None]]:
    """A progress bar with count, rate and time left; yields a function that advances it.

    Updates are batched so that a bar over 100,000 games costs next to nothing.
    """
    if disable:
        yield lambda n: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("[progress.percentage]{task.percentage:>3.0f}%"),
               TextColumn("{task.fields[rate]}"), TimeRemainingColumn())
    console = Console(stderr=True)
    progress = Progress(*columns, console=console, transient=True, disable=not console.is_terminal)
    task = progress.add_task(label, total=total, rate="")
    pending = [0]
    started = [False]
    step = max(1, total // 200)

    def advance(n: int) -> None:
        # The display (and its thread) starts with the first result, after any worker processes
        # have been forked.
        if not started[0]:
            progress.start()
            started[0] = True
        pending[0] += n
        if pending[0] >= step:
            progress.advance(task, pending[0])
            speed = progress.tasks[0].speed
            if speed:
                progress.update(task, rate=f"{speed:,.0f}/s")
            pending[0] = 0

    try:
        yield advance
    finally:
        if started[0]:
            progress.advance(task, pending[0])
            progress.stop()


@contextlib.contextmanager
def status(label: str, disable: bool = False) -> Iterator[Callable[[str], None]]:
    """A one-line status on standard error, rewritten as a long search goes on (shown on a terminal only, and
    gone when the search ends); yields a function that sets the text after ``label``."""
    console = Console(stderr=True)
    if disable or not console.is_terminal:
        yield lambda text: None
        return
    with console.status(label) as shown:
        yield lambda text: shown.update(f"{label} {text}")
