"""Built-in strategies of moaisim: `random` and `greedy` (see `moaisim strategies`)."""
