"""One module per pattern family; each function decorated with ``@detector`` is discovered."""
