"""Build-time page generation: every generated page of the site comes from schachett_rules.site."""

import mkdocs_gen_files

from schachett_rules.printing.downloads import write_downloads
from schachett_rules.site import build_pages


def write(path: str, content) -> None:
    mode = "wb" if isinstance(content, bytes) else "w"
    with mkdocs_gen_files.open(path, mode) as fh:
        fh.write(content)


build_pages(write)
write_downloads(write)
