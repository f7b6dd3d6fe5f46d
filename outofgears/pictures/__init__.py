"""Pictures of the table: SVG drawings of a position and a turn
(:mod:`~outofgears.pictures.render`, routed by :mod:`~outofgears.pictures.lanes`) and the
one-file HTML game viewer (:mod:`~outofgears.pictures.viewer`)."""
