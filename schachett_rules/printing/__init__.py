"""Print-and-play: the deck laid out on sheets for cutting, with its backs, and as files for a print shop.

:mod:`.layout` places the cards on a sheet (pure geometry, in millimetres); :mod:`.render` draws
the sheets into a PDF and the single cards into PNG and SVG files, from the site's card design.
"""
