"""Search: query syntax, ranking over two engines, the text index and text extraction."""
