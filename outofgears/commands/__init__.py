"""The commands of the ``outofgears`` command line, one module each."""
