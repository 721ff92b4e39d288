"""The one error `tsunagi.load` raises for a path that is not a tsunagi output."""


class NotATsunagiOutput(FileNotFoundError):
    """A path that holds neither a run's result.json nor a sweep's sweep.csv.

    A FileNotFoundError so that code catching missing files catches this too; a class of its own
    so that a caller can tell "wrong directory" from a broken file (which raises ValueError /
    json.JSONDecodeError with the file and line).
    """
