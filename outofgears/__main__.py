"""``python -m outofgears``: the same as the installed ``outofgears`` script."""

from outofgears.cli.main import run

if __name__ == "__main__":
    run()
