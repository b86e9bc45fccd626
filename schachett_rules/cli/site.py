"""``schachett site``: build or serve the annotated rulebook site with MkDocs.

A build is staged beside its target and put in place whole by :mod:`.output`, so that a failed
build leaves the earlier one as it was.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click

from ..errors import SchachettError
from ..paths import home
from . import output
from .common import force_flag, forced


@click.group()
def site() -> None:
    """Build or serve the annotated rulebook site (MkDocs)."""


@site.command("build")
@click.option("--dir", "site_dir", type=click.Path(path_type=Path), default=None,
              help="Where to write the site (default: site/ in the project): a new or empty folder, or an earlier "
                   "build.")
@click.option("--strong-games", type=click.IntRange(10, 100000), default=None,
              help="Games played with strong players for each reading and ruleset (default 200, a fifth of it where "
                   "six or eight hands play): fewer give a quicker build with wider intervals; the pages name the "
                   "number played.")
@force_flag("Build into a folder that holds other files too: the site's files are added, replacing files of the "
            "same names; nothing is deleted.")
def site_build(site_dir: Path | None, strong_games: int | None) -> None:
    """Generate every page and build the site with `mkdocs build --strict`.

    The site is built in a folder beside the target and put in place when it is complete; the
    target must be new, empty or an earlier build (each build leaves a marker file in it).
    """
    env = _quiet_mkdocs()
    try:
        from ..site import sims      # the site's modules load only for a build (and read the environment as they do)
        if strong_games is not None:
            env[sims.STRONG_GAMES_VARIABLE] = str(strong_games)
        sims.strong_games_setting(env)
    except ValueError as e:
        raise SchachettError(f"{e}: the environment asks it of the site build; unset it or give it a number "
                             f"(--strong-games N sets it for one build)")
    target = (site_dir or home() / "site").resolve()
    how = output.check_site(target, "--dir", forced())

    def build(staged: Path) -> bool:
        return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(staged)],
                              cwd=home(), env=env).returncode == 0

    if not output.build_site(target, how, build, "--dir"):
        raise SchachettError(f"the site did not build, and {target} is as it was: see the messages above "
                             f"(mkdocs build --strict)")
    click.echo(f"the site is in {target}; open {target / 'index.html'} or run `schachett site serve`")


@site.command("serve")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
def site_serve(port: int) -> None:
    """Serve the site on localhost, rebuilding it when a source changes."""
    subprocess.run([sys.executable, "-m", "mkdocs", "serve", "--strict", "--dev-addr", f"127.0.0.1:{port}"], cwd=home(),
                   env=_quiet_mkdocs())


def _quiet_mkdocs() -> dict:
    # The theme and a plugin print banners about MkDocs' future on every build; they are not about this site.
    return dict(os.environ, NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true")
